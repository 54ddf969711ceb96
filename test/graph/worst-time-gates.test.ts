import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dag } from '../../src/document/model.ts';
import { analyse } from '../../src/graph/analyse.ts';
import { computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { worstCaseTime } from '../../src/graph/worst-time.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { exploreTime } from './brute-force.ts';
import { libraryOf, sampleDags } from './helpers.ts';
import { graphSpec, randomDag } from './random-dag.ts';

const samples = sampleDags();
const library = libraryOf(samples.values());

function timeOf(name: string, input: PolicyInput, withLibrary = false) {
  const compiled = compile(samples.get(name) as Dag);
  const lib = withLibrary ? library : undefined;
  return worstCaseTime(compiled, computeBounds(compiled, lib), resolvePolicy(input), lib);
}

const constant: PolicyInput = {
  defaults: {
    deadlineMs: 1000,
    backoff: { strategy: 'constant', baseMs: 50, capMs: 50 },
    jitter: 'none',
    retryAfter: { honour: false },
  },
};

/**
 * The longest one gated execution with `deadlineMs` takes, by trying every whole-ms wait at the gate up to
 * past the deadline, with the rules of runtime/gated-task.ts: a wait that reaches past the deadline is
 * late (the item routes as a timeout when the deadline passes); otherwise the node is given what is left
 * of the deadline, and at least 1 ms.
 */
function gatedExecution(deadlineMs: number): bigint {
  let longest = 0;
  for (let waited = 0; waited <= 2 * deadlineMs + 2; waited++) {
    const took = waited > deadlineMs ? deadlineMs : waited + Math.max(1, deadlineMs - waited);
    longest = Math.max(longest, took);
  }
  return BigInt(longest);
}

describe('worstCaseTime with gates', () => {
  it('keeps each gate wait inside its deadline, plus the 1 ms a late start is given', () => {
    const plain = timeOf('nested-retry.jsonld', constant);
    const gated = timeOf('nested-retry.jsonld', {
      ...constant,
      gates: { api: { placements: ['execute'], rate: { limit: 4, periodMs: 1000 }, maxClosedMs: 60_000 } },
    });
    expect(gated.perPlacement.get('execute')).toBe(12n * 1001n);
    expect(gated.totalMs).toBe((plain.totalMs as bigint) + 12n);
    expect(gated.gateWaits).toEqual([
      {
        gate: 'api',
        dag: 'urn:switchyard:dag:nested-retry',
        placement: 'execute',
        visits: 12n,
        deadlineMs: 1000,
        // Hints are not honoured: a closing lasts the back-off's base delay, within maxClosedMs.
        closedMs: 50,
        intervalMs: 250,
        aloneMs: 300,
      },
    ]);
    const honoured = timeOf('nested-retry.jsonld', {
      defaults: { ...constant.defaults, retryAfter: { honour: true, capMs: 5000 } },
      gates: { api: { placements: ['execute'], maxClosedMs: 60_000 } },
    });
    expect(honoured.gateWaits[0]).toMatchObject({ closedMs: 60_000, intervalMs: 0, aloneMs: 60_000 });
  });

  it('takes the longest closing any placement under the gate can cause', () => {
    const time = timeOf('nested-retry.jsonld', {
      defaults: { ...constant.defaults, retryAfter: { honour: true, capMs: 2000 } },
      placements: { plan: { retryAfter: { capMs: 9000 } } },
      gates: { api: { placements: ['execute', 'plan'] }, other: { placements: ['check'] } },
    });
    const closed = Object.fromEntries(time.gateWaits.map((w) => [w.placement, w.closedMs]));
    expect(closed).toEqual({ execute: 9000, plan: 9000, check: 2000 });
  });

  it('closes for the back-off when hints are not honoured, and not at all without pauseOnRetryAfter', () => {
    const time = timeOf('nested-retry.jsonld', {
      ...constant,
      gates: {
        hinted: { placements: ['execute'] },
        paced: {
          placements: ['plan'],
          pauseOnRetryAfter: false,
          rate: { limit: 2, periodMs: 100, burst: 3 },
        },
      },
    });
    const by = Object.fromEntries(time.gateWaits.map((w) => [w.gate, [w.closedMs, w.intervalMs, w.aloneMs]]));
    expect(by).toEqual({ hinted: [50, 0, 50], paced: [0, 50, 50] });
  });

  it('counts the gated placements of embedded documents and the children of a gated scatter', () => {
    const gates = { gates: { llm: { nodes: ['urn:switchyard:node:compose'] } } };
    const child = timeOf('compose-validate.jsonld', { ...constant, ...gates });
    const plainChild = timeOf('compose-validate.jsonld', constant);
    expect(child.totalMs).toBe((plainChild.totalMs as bigint) + 6n);
    const review = timeOf('review.jsonld', { ...constant, ...gates }, true);
    expect(review.perPlacement.get('draft')).toBe(3n * (child.totalMs as bigint));
    expect(review.gateWaits.map((w) => [w.dag, w.placement, w.visits])).toEqual([
      ['urn:switchyard:dag:compose-validate', 'compose', 6n],
    ]);
    const scatter = samples.get('scatter-gather.jsonld') as Dag;
    const search = scatter.placements.find((p) => p.key === 'search') as { node?: string };
    const scattered = timeOf('scatter-gather.jsonld', {
      ...constant,
      gates: { api: { nodes: [search.node as string] } },
    });
    expect(scattered.perChild.get('search')).toBe(1001n);
  });

  it('matches the brute-force walk of the samples, gated or not', () => {
    for (const name of ['nested-retry.jsonld', 'compose-validate.jsonld']) {
      const dag = samples.get(name) as Dag;
      const tasks = dag.placements.filter((p) => p.kind === 'task').map((p) => p.key);
      for (const gated of [[], tasks.slice(0, 1), tasks]) {
        const input: PolicyInput = { ...constant, gates: { g: { placements: gated, maxClosedMs: 5 } } };
        const walk = exploreTime(dag, {
          execution: (p) =>
            p.kind === 'terminal' ? 0n : gated.includes(p.key) ? gatedExecution(1000) : 1000n,
          retry: () => 50n,
        });
        expect([name, gated, timeOf(name, input).totalMs]).toEqual([name, gated, walk]);
      }
    }
  });
});

describe('worstCaseTime with gates against brute force', () => {
  const policySpec = fc.record({
    deadlines: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 5, maxLength: 5 }),
    gated: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
    byNode: fc.boolean(),
    backoffMs: fc.integer({ min: 0, max: 30 }),
    maxClosedMs: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
    rate: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
  });

  it('never bounds an item below the longest walk, whatever its gates make it wait', () => {
    let checked = 0;
    fc.assert(
      fc.property(graphSpec, policySpec, (spec, p) => {
        const dag = randomDag(spec);
        if (analyse(dag).some((x) => x.code === 'E_UNBOUNDED_LOOP' || x.code === 'E_RESET_CYCLE')) return;
        checked++;
        const tasks = dag.placements.filter((x) => x.kind === 'task').map((x) => x.key);
        const gated = tasks.filter((_, i) => p.gated[i]);
        const deadline = (key: string) => p.deadlines[tasks.indexOf(key)] ?? 1;
        const input: PolicyInput = {
          defaults: {
            backoff: { strategy: 'constant', baseMs: p.backoffMs, capMs: p.backoffMs },
            jitter: 'none',
            retryAfter: { honour: false },
          },
          placements: Object.fromEntries(tasks.map((key) => [key, { deadlineMs: deadline(key) }])),
          gates: {
            g: {
              ...(p.byNode ? { nodes: gated.map((key) => `urn:test:${key}`) } : { placements: gated }),
              ...(p.maxClosedMs === undefined ? {} : { maxClosedMs: p.maxClosedMs }),
              ...(p.rate === undefined ? {} : { rate: { limit: p.rate, periodMs: 100 } }),
            },
          },
        };
        const compiled = compile(dag);
        const time = worstCaseTime(compiled, computeBounds(compiled), resolvePolicy(input));
        const walk = exploreTime(dag, {
          execution: (x) =>
            x.kind === 'terminal'
              ? 0n
              : gated.includes(x.key)
                ? gatedExecution(deadline(x.key))
                : BigInt(deadline(x.key)),
          retry: () => BigInt(p.backoffMs),
        });
        expect(time.totalMs).toBeGreaterThanOrEqual(walk);
        expect(time.gateWaits.map((w) => w.placement).sort()).toEqual(
          gated.filter((key) => (computeBounds(compiled).perPlacement.get(key) ?? 0n) !== 0n).sort(),
        );
      }),
      { numRuns: 300, seed: 20_261_203 },
    );
    expect(checked).toBeGreaterThan(80);
  });
});
