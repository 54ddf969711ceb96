/**
 * The await corpus's oracle: walks a case's documents by hand, as the engine should, from the answer script
 * alone: every task takes `done`, an await takes its scripted answer or `deadline`, a retry route spends its
 * budget (its exhaustion route once spent), a scatter's children walk its sub-DAG and a `partition`/`any`
 * gather completes when one of them does, an embed takes its child's outcome. It answers where each input
 * item ends and how each wait ended, to be compared with a run's result and events.
 */
import type { Dag, Placement } from '../../src/document/model.ts';
import type { RunEvent } from '../../src/runtime/events.ts';
import { getPointer } from '../../src/runtime/pointer.ts';
import type { RunResult } from '../../src/runtime/run.ts';
import { answerFor } from './answer-script.ts';
import type { AwaitCase } from './await-corpus.ts';

/** How an item's wait ended: `<item> <placement>#<visit> <output | deadline>`. */
type WaitEnd = string;

interface Walked {
  readonly terminal: string;
  readonly outcome: 'completed' | 'failed';
  /** The answers' data the item holds at the end, by pointer (an embed's mapped out to its parent). */
  readonly written: ReadonlyMap<string, unknown>;
}

class Walker {
  readonly waits: WaitEnd[] = [];
  private readonly docs: Map<string, Dag>;

  constructor(private readonly c: AwaitCase) {
    this.docs = new Map([c.root, ...c.library].map((d) => [d.id, d]));
  }

  walk(iri: string, item: string, data: Record<string, unknown>): Walked {
    const doc = this.docs.get(iri) as Dag;
    const placement = (key: string) => doc.placements.find((p) => p.key === key) as Placement;
    const visits = new Map<string, number>();
    const spent = new Map<string, number>();
    const written = new Map<string, unknown>();
    let at = doc.entrypoints[0] as string;
    for (let step = 0; step < 100; step++) {
      const p = placement(at);
      const visit = (visits.get(at) ?? 0) + 1;
      visits.set(at, visit);
      let output: string;
      switch (p.kind) {
        case 'terminal':
          return { terminal: at, outcome: p.outcome, written };
        case 'task':
          output = 'done';
          break;
        case 'await': {
          const answer = answerFor(this.c.answers, { item, dag: iri, placement: at, visit });
          output = answer?.output ?? 'deadline';
          if (answer?.data !== undefined && p.into !== undefined) written.set(p.into, answer.data);
          this.waits.push(`${item} ${at}#${visit} ${output}`);
          break;
        }
        case 'embed': {
          const child = this.walk(p.dag, `${item}/${at}`, {});
          for (const m of p.result)
            if (child.written.has(m.from)) written.set(m.to, child.written.get(m.from));
          output = child.outcome;
          break;
        }
        case 'scatter': {
          const list = data[p.items.slice(1)] as unknown[];
          const children = list.map((_, i) => this.walk(p.dag as string, `${item}.${i}`, {}));
          const gather = p.routes.find((r) => r.output === 'done')?.to as string;
          visits.set(gather, 1);
          at = gather;
          output = children.some((child) => child.outcome === 'completed') ? 'completed' : 'failed';
          break;
        }
        default:
          throw new Error(`the oracle knows no ${p.kind} placement`);
      }
      const route = placement(at).routes.find((r) => r.output === output);
      if (route === undefined) throw new Error(`${iri} ${at}: no route for ${output}`);
      if (route.kind === 'retry') {
        const budget = route.budget as string;
        const max = doc.budgets.find((b) => b.name === budget)?.max ?? 0;
        const used = spent.get(budget) ?? 0;
        if (used >= max) {
          at = route.exhausted as string;
          continue;
        }
        spent.set(budget, used + 1);
      }
      at = route.to;
    }
    throw new Error(`${iri}: item ${item} did not end within 100 steps`);
  }
}

/** What the oracle holds a run to: where its items end, with the answers' data they keep, and its waits. */
export interface Expected {
  /** `<item> <terminal>` and, for each answer's data the item keeps, `<item> <pointer> <data as JSON>`; sorted. */
  readonly terminals: string[];
  readonly waits: WaitEnd[];
}

/** Where each input item of a case should end, with the data answers wrote, and how each wait should end. */
export function expectedOf(c: AwaitCase): Expected {
  const walker = new Walker(c);
  const terminals = c.items.flatMap((data, i) => {
    const id = String(i + 1);
    const walked = walker.walk(c.root.id, id, data);
    const written = [...walked.written].map(
      ([pointer, value]) => `${id} ${pointer} ${JSON.stringify(value)}`,
    );
    return [`${id} ${walked.terminal}`, ...written];
  });
  return { terminals: terminals.sort(), waits: [...walker.waits].sort() };
}

/**
 * The same of a run: its items' terminals, their data at the pointers `expected` names, and its
 * `await.answered` / `await.expired` events, sorted.
 */
export function observedOf(result: RunResult, events: readonly RunEvent[], expected: Expected): Expected {
  const visitOf = new Map<string, number>();
  for (const e of events) if (e.type === 'await.parked') visitOf.set(e.token, e.visit);
  const waits: WaitEnd[] = [];
  for (const e of events) {
    if (e.type === 'await.answered')
      waits.push(`${e.item} ${e.placement}#${visitOf.get(e.token)} ${e.output}`);
    if (e.type === 'await.expired') waits.push(`${e.item} ${e.placement}#${visitOf.get(e.token)} deadline`);
  }
  const pointers = expected.terminals.flatMap((line) => {
    const [item, pointer] = line.split(' ');
    return pointer?.startsWith('/') ? [{ item, pointer }] : [];
  });
  const terminals = [
    ...result.items.map((i) => `${i.id} ${i.terminal}`),
    ...pointers.map(({ item, pointer }) => {
      const data = result.items.find((i) => i.id === item)?.data;
      return `${item} ${pointer} ${JSON.stringify(data === undefined ? undefined : getPointer(data, pointer))}`;
    }),
    ...result.failures.map((f) => `${f.id} failure at ${f.placement}: ${f.error.code}`),
    ...result.aborted.map((a) => `${a.item} aborted at ${a.placement}`),
  ].sort();
  return { terminals, waits: waits.sort() };
}
