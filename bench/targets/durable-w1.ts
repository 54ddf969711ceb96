/**
 * The durable W1 target's measurement, in a process of its own: the dispatcher's W1 runs recorded in a
 * fresh SQLite file, beside the hand-written loop writing the same information the way the dispatcher must
 * commit it (the run's row first, then every transition's checkpoint row with the run's end:
 * bench/baseline/durable-compose-validate.ts, `start-and-end`), in alternating repetitions. Prints one JSON
 * line of median µs per node execution, wall and CPU, once the code is optimised (`engine`, `hand`) and in
 * the repetitions right after the first two (`early`), and what one durable run writes.
 *
 *   node --import tsx bench/targets/durable-w1.ts <runs> <reps>
 */
import { durableW1Runs, type Figures, figuresOf, type Sample } from '../durable-w1-runs.ts';

/** What the process prints. */
export interface DurableW1Figures {
  readonly hand: Figures;
  readonly engine: Figures;
  /**
   * Repetitions `from` (counted from 1) to {@link WARMUP}, while V8 still optimises the engine's code on its
   * helper threads.
   */
  readonly early: { readonly hand: Figures; readonly engine: Figures; readonly from: number };
  /** The repetitions run before the measured ones. */
  readonly warmup: number;
  readonly written: string;
}

/**
 * Repetitions before the measured ones. A durable run goes through much more code than the ledger, and V8
 * compiles it again each time a new dispatcher's objects widen the types its optimised code was built on
 * (a new store, policy and clock per repetition here): about 1.3 s of TurboFan work on its helper threads
 * over the first 3,000 runs, which `process.cpuUsage` counts (the engine's CPU is then 1.3–1.6× its wall
 * time, against 1.0–1.05× from the seventh repetition of 500 runs on). A per-transition cost is measured
 * once that is over; what the first repetitions cost is reported beside it.
 */
const WARMUP = 8;

/** The repetitions before {@link WARMUP} that are reported as `early` (the first two are left out). */
const EARLY_FROM = 2;

async function main(runs: number, reps: number): Promise<DurableW1Figures> {
  const w1 = durableW1Runs(runs);
  try {
    const hand: Sample[] = [];
    const engine: Sample[] = [];
    const early = { hand: [] as Sample[], engine: [] as Sample[] };
    for (let i = 0; i < WARMUP + reps; i++) {
      // Which goes first alternates, so that neither always runs on the other's garbage.
      const byHand = () => w1.ledger('start-and-end');
      const byEngine = () => w1.engine('sqlite-file');
      let h: Sample;
      let e: Sample;
      if (i % 2 === 0) {
        h = await byHand();
        e = await byEngine();
      } else {
        e = await byEngine();
        h = await byHand();
      }
      const into = i < EARLY_FROM ? undefined : i < WARMUP ? early : { hand, engine };
      into?.hand.push(h);
      into?.engine.push(e);
    }
    return {
      hand: figuresOf(hand),
      engine: figuresOf(engine),
      early: { hand: figuresOf(early.hand), engine: figuresOf(early.engine), from: EARLY_FROM + 1 },
      warmup: WARMUP,
      written: await w1.writesPerRun(),
    };
  } finally {
    w1.close();
  }
}

const [runs, reps] = process.argv.slice(2);
if (runs === undefined || reps === undefined) {
  process.stderr.write('usage: durable-w1.ts <runs> <reps>\n');
  process.exitCode = 2;
} else {
  process.stdout.write(`${JSON.stringify(await main(Number(runs), Number(reps)))}\n`);
}
