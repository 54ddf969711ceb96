import { describe, expect, it } from 'vitest';
import { awaitDeadlineProblems } from '../../src/awaits/check.ts';
import { dag } from '../../src/document/builder.ts';
import type { Dag } from '../../src/document/model.ts';
import { analyse } from '../../src/graph/analyse.ts';
import { computeBounds } from '../../src/graph/bounds.ts';
import { compile } from '../../src/graph/compile.ts';
import { worstCaseTime } from '../../src/graph/worst-time.ts';
import { resolvePolicy } from '../../src/policy/resolve.ts';
import type { PolicyInput } from '../../src/policy/types.ts';
import { libraryOf, sampleDags } from './helpers.ts';

const N = (name: string) => `urn:switchyard:node:${name}`;
const approval = sampleDags().get('approval.jsonld') as Dag;

/** A draft, an await `approve` answered yes/no, and what the caller routes from it. */
function withAwait(route: (builder: ReturnType<typeof dag>) => ReturnType<typeof dag>, id = 'urn:x:await') {
  const builder = dag(id, { name: 'Await', version: '1.0.0' })
    .entry('draft')
    .task('draft', N('draft'))
    .route('ok', 'approve')
    .await('approve', { answers: ['yes', 'no'] })
    .terminal('done', 'completed')
    .terminal('refused', 'failed')
    .from('approve');
  return route(builder).build();
}

const codes = (d: Dag) => analyse(d).map((p) => p.code);

describe('analysis of await placements', () => {
  it('accepts an await whose answers and deadline are all routed', () => {
    const d = withAwait((b) => b.route('yes', 'done').route('no', 'refused').route('deadline', 'refused'));
    expect(analyse(d)).toEqual([]);
  });

  it('refuses an await without a deadline route, naming it, at its routes', () => {
    const d = withAwait((b) => b.route('yes', 'done').route('no', 'refused'));
    const problems = analyse(d);
    expect(problems).toMatchObject([
      {
        code: 'E_AWAIT_DEADLINE_ROUTE',
        severity: 'error',
        placement: 'approve',
        pointer: '/placements/0/routes',
      },
    ]);
    expect(problems[0]?.message).toContain("await placement 'approve'");
    expect(problems[0]?.message).toContain("add a route on output 'deadline'");
  });

  it("refuses a route on an output that is neither an answer nor 'deadline', listing the outputs", () => {
    const d = withAwait((b) =>
      b.route('yes', 'done').route('no', 'refused').route('deadline', 'refused').route('maybe', 'done'),
    );
    const problems = analyse(d).filter((p) => p.code === 'E_UNKNOWN_OUTPUT');
    expect(problems).toMatchObject([{ placement: 'approve', pointer: '/placements/0/routes/1/output' }]);
    expect(problems[0]?.message).toContain("'deadline', 'no', 'yes'");
    // A task's engine outputs are not an await's.
    const retry = withAwait((b) =>
      b.route('yes', 'done').route('no', 'refused').route('deadline', 'refused').route('error', 'refused'),
    );
    expect(codes(retry)).toEqual(['E_UNKNOWN_OUTPUT']);
  });

  it('warns of an answer with no route, without a node catalog', () => {
    const d = withAwait((b) => b.route('yes', 'done').route('deadline', 'refused'));
    expect(analyse(d)).toMatchObject([
      { code: 'W_UNROUTED_OUTPUT', placement: 'approve', pointer: '/placements/0/routes' },
    ]);
    expect(analyse(d)[0]?.message).toContain("output 'no' of placement 'approve'");
  });

  it('lets an await be an entrypoint, as a task may be', () => {
    const d = dag('urn:x:entry-await', { name: 'Await first', version: '1.0.0' })
      .entry('approve')
      .await('approve', { answers: ['yes'] })
      .route('yes', 'done')
      .route('deadline', 'done')
      .terminal('done', 'completed')
      .build();
    expect(analyse(d)).toEqual([]);
  });

  it('needs a budget on a loop through an await, and bounds it by the budget', () => {
    const unbounded = withAwait((b) =>
      b.route('yes', 'done').route('no', 'draft').route('deadline', 'refused'),
    );
    expect(codes(unbounded)).toEqual(['E_UNBOUNDED_LOOP']);
    expect(analyse(approval)).toEqual([]);
    const bounds = computeBounds(compile(approval));
    expect(bounds.perPlacement.get('review')).toBe(3n);
    expect(bounds.perPlacement.get('draft')).toBe(3n);
    expect(bounds.spends.get('revise')).toBe(2n);
  });
});

const timing: PolicyInput = {
  defaults: {
    deadlineMs: 1000,
    backoff: { strategy: 'constant', baseMs: 50, capMs: 50 },
    jitter: 'none',
    retryAfter: { honour: false },
  },
  placements: { review: { deadlineMs: 3_600_000 } },
};

describe('worst-case time of await placements', () => {
  it('counts each execution of an await as its whole deadline', () => {
    const compiled = compile(approval);
    const time = worstCaseTime(compiled, computeBounds(compiled), resolvePolicy(timing));
    expect(time.perPlacement.get('review')).toBe(3n * 3_600_000n);
    expect(time.awaitWaits).toEqual([
      { dag: approval.id, placement: 'review', visits: 3n, deadlineMs: 3_600_000 },
    ]);
    expect(time.unboundedBecause).toBeUndefined();
  });

  it('is unbounded, saying why, when the policy gives an await no deadline', () => {
    const compiled = compile(approval);
    const policy = resolvePolicy({
      defaults: { deadlineMs: 1000 },
      placements: { review: { deadlineMs: null } },
    } as unknown as PolicyInput);
    const time = worstCaseTime(compiled, computeBounds(compiled), policy);
    expect(time.totalMs).toBeUndefined();
    expect(time.unboundedBecause).toContain("await placement 'review' has no deadline");
    expect(time.awaitWaits).toEqual([
      { dag: approval.id, placement: 'review', visits: 3n, deadlineMs: undefined },
    ]);
  });

  it('counts the awaits of an embedded document', () => {
    const outer = dag('urn:x:outer', { name: 'Outer', version: '1.0.0' })
      .entry('sub')
      .embed('sub', approval.id)
      .route('completed', 'done')
      .route('failed', 'done')
      .terminal('done', 'completed')
      .build();
    const library = libraryOf([approval]);
    const compiled = compile(outer);
    const time = worstCaseTime(compiled, computeBounds(compiled, library), resolvePolicy(timing), library);
    expect(time.awaitWaits).toMatchObject([{ dag: approval.id, placement: 'review', deadlineMs: 3_600_000 }]);
    expect(time.totalMs).toBeGreaterThan(3n * 3_600_000n);
  });
});

describe('awaitDeadlineProblems', () => {
  it('is empty when every await has a deadline, from its placement or the defaults', () => {
    expect(awaitDeadlineProblems(approval, resolvePolicy(timing))).toEqual([]);
    expect(awaitDeadlineProblems(compile(approval), resolvePolicy({ defaults: { deadlineMs: 5 } }))).toEqual(
      [],
    );
    expect(
      awaitDeadlineProblems(
        approval,
        resolvePolicy({ placements: { [`${approval.id}#review`]: { deadlineMs: 5 } } }),
      ),
    ).toEqual([]);
  });

  it('names each await without a deadline and says where to give one', () => {
    const problems = awaitDeadlineProblems(approval, resolvePolicy({}));
    expect(problems).toMatchObject([{ code: 'E_AWAIT_NO_DEADLINE', severity: 'error', placement: 'review' }]);
    expect(problems[0]?.message).toMatch(
      /^await placement 'review' has no deadline: give it deadlineMs in the policy's placements/,
    );
    expect(problems[0]?.pointer).toBeUndefined();
  });

  it("points at the override that takes the deadline away, with the policy's file and position", () => {
    const policy = resolvePolicy({
      defaults: { deadlineMs: 5 },
      placements: { review: { deadlineMs: null } },
    } as unknown as PolicyInput);
    const source = {
      file: 'p.json',
      locate: (pointer: string) => (pointer === '/placements/review' ? { line: 3, column: 5 } : undefined),
    };
    expect(awaitDeadlineProblems(approval, policy, { source })).toMatchObject([
      { code: 'E_AWAIT_NO_DEADLINE', pointer: '/placements/review', file: 'p.json', line: 3, column: 5 },
    ]);
  });

  it('checks the awaits of embedded documents, naming their document', () => {
    const outer = dag('urn:x:outer', { name: 'Outer', version: '1.0.0' })
      .entry('sub')
      .embed('sub', approval.id)
      .route('completed', 'done')
      .route('failed', 'done')
      .terminal('done', 'completed')
      .build();
    const problems = awaitDeadlineProblems(outer, resolvePolicy({}), { library: libraryOf([approval]) });
    expect(problems).toMatchObject([{ code: 'E_AWAIT_NO_DEADLINE', placement: 'review' }]);
    expect(problems[0]?.message).toContain(`'review' of ${approval.id}`);
    expect(problems[0]?.message).toContain(`"${approval.id}#review"`);
  });
});
