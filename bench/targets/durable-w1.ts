/**
 * The durable W1 target's measurement, in a process of its own: the dispatcher's W1 runs recorded in a
 * fresh SQLite file, beside the hand-written loop writing the same information the way the dispatcher must
 * commit it (the run's row first, then every transition's checkpoint row with the run's end:
 * bench/baseline/durable-compose-validate.ts, `start-and-end`), in alternating repetitions. Prints one JSON
 * line of median µs per node execution, wall and CPU, and what one durable run writes.
 *
 *   node --import tsx bench/targets/durable-w1.ts <runs> <reps>
 */
import { durableW1Runs, type Figures, figuresOf, type Sample } from '../durable-w1-runs.ts';

/** What the process prints. */
export interface DurableW1Figures {
  readonly hand: Figures;
  readonly engine: Figures;
  readonly written: string;
}

const WARMUP = 2;

async function main(runs: number, reps: number): Promise<DurableW1Figures> {
  const w1 = durableW1Runs(runs);
  try {
    const hand: Sample[] = [];
    const engine: Sample[] = [];
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
      if (i < WARMUP) continue;
      hand.push(h);
      engine.push(e);
    }
    return { hand: figuresOf(hand), engine: figuresOf(engine), written: await w1.writesPerRun() };
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
