import { describe, expect, it } from 'vitest';
import { generateDag, generateDocument, generateExpanded } from '../../bench/generate.ts';
import { dag } from '../../src/document/builder.ts';
import { hashDag } from '../../src/document/hash.ts';
import { loadDagFile, loadDagText } from '../../src/document/load.ts';
import { toDocument } from '../../src/document/serialise.ts';
import { isSwitchyardError } from '../../src/errors.ts';

const N = (name: string) => `urn:switchyard:node:${name}`;

function composeValidate() {
  return dag('urn:switchyard:dag:compose-validate', {
    name: 'Compose and validate',
    version: '1.0.0',
    description:
      "Compose a draft and validate it; a rejected draft goes back to composition with the validator's hint, at most 3 times, then a deterministic salvage answers instead.",
  })
    .budget('compose', 3, 'Re-compositions after the validator rejects a draft.')
    .budget(
      'transient',
      2,
      'Re-tries of a composition that failed with a retryable error (429, 503, reset, timeout).',
    )
    .entry('compose')
    .task('compose', N('compose'), { label: 'Compose draft' })
    .route('drafted', 'validate')
    .retry('retry', 'compose', { budget: 'transient', exhausted: 'salvage' })
    .salvage('error', 'salvage')
    .task('validate', N('validate'), { label: 'Validate draft' })
    .route('valid', 'done')
    .retry('invalid', 'compose', { budget: 'compose', exhausted: 'salvage' })
    .salvage('error', 'salvage')
    .task('salvage', N('salvage'), { label: 'Deterministic salvage' })
    .route('salvaged', 'salvaged')
    .route('error', 'failed')
    .terminal('done', 'completed', { label: 'Answered' })
    .terminal('salvaged', 'completed', { label: 'Salvaged' })
    .terminal('failed', 'failed', { label: 'Failed' });
}

describe('builder', () => {
  it('builds compose-validate equal to the shipped document', async () => {
    const { dag: loaded } = await loadDagFile('dags/compose-validate.jsonld');
    const built = composeValidate().build();
    expect(built).toStrictEqual(loaded);
    expect(await hashDag(built)).toBe(await hashDag(loaded ?? built));
  });

  it('round-trips builder -> toDocument -> loadDagText exactly', async () => {
    const builder = composeValidate();
    const { dag: again, form } = await loadDagText(JSON.stringify(builder.toDocument()));
    expect(form).toBe('canonical');
    expect(again).toStrictEqual(builder.build());
  });

  it('routes from an earlier placement after from(key), with every placement kind', async () => {
    const built = dag('urn:x:all-kinds', { name: 'All kinds', version: '0.1.0' })
      .budget('again', 1)
      .entry('fan')
      .phase('setup', 'pre', N('setup'))
      .scatter('fan', { items: '/list', dag: 'urn:x:child' })
      .gather('join', { into: '/out', reducer: 'quorum', require: 'quorum', quorum: 2 })
      .embed('sub', 'urn:x:child', { input: [{ from: '/a', to: '/b' }], result: [{ from: '/c', to: '/d' }] })
      .terminal('end', 'completed')
      .from('fan')
      .route('done', 'join')
      .from('join')
      .route('completed', 'sub')
      .retry('failed', 'fan', { budget: 'again', exhausted: 'end', label: 'once more' })
      .from('sub')
      .route('completed', 'end')
      .route('failed', 'end')
      .build();
    expect(built.placements.map((p) => [p.key, p.routes.length])).toEqual([
      ['end', 0],
      ['fan', 1],
      ['join', 2],
      ['setup', 0],
      ['sub', 2],
    ]);
    expect((await loadDagText(JSON.stringify(toDocument(built)))).dag).toStrictEqual(built);
  });

  it('builds an await placement equal to the shipped approval document, answers in any order', async () => {
    const { dag: loaded } = await loadDagFile('dags/approval.jsonld');
    const built = dag('urn:switchyard:dag:approval', {
      name: 'Approval',
      version: '1.0.0',
      description:
        "Drafts something and waits for a person to approve it, reject it or ask for a revision; a revision goes back to the draft at most twice, and a review that is not answered by its deadline (the policy's deadlineMs for 'review') is escalated.",
    })
      .budget('revise', 2, 'Revisions the reviewer may ask for.')
      .entry('draft')
      .task('draft', N('draft'), { label: 'Draft' })
      .route('drafted', 'review')
      .salvage('error', 'escalate')
      .await('review', {
        answers: ['revise', 'approved', 'rejected'],
        into: '/review',
        label: "Reviewer's answer",
        description:
          "Parks the draft until the reviewer answers; the answer's data (a comment) is kept at /review.",
      })
      .route('approved', 'approved')
      .route('rejected', 'rejected')
      .retry('revise', 'draft', { budget: 'revise', exhausted: 'escalate' })
      .route('deadline', 'escalate')
      .task('escalate', N('escalate'), { label: 'Escalate to a person' })
      .route('queued', 'escalated')
      .terminal('approved', 'completed', { label: 'Approved' })
      .terminal('rejected', 'failed', { label: 'Rejected' })
      .terminal('escalated', 'failed', { label: 'Escalated' })
      .build();
    expect(built).toStrictEqual(loaded);
    const review = built.placements.find((p) => p.key === 'review');
    expect(review).toMatchObject({
      kind: 'await',
      answers: ['approved', 'rejected', 'revise'],
      into: '/review',
    });
  });

  it('refuses an await with no answers, or answers that are not names, as the schema does', () => {
    const base = () => dag('urn:x', { name: 'x', version: '1' }).entry('a');
    const code = (f: () => unknown) => {
      try {
        f();
        return 'none';
      } catch (error) {
        return isSwitchyardError(error) ? error.code : 'other';
      }
    };
    expect(code(() => base().await('a', { answers: [] }).build())).toBe('E_SCHEMA');
    expect(
      code(() =>
        base()
          .await('a', { answers: ['ok'], into: 'no pointer' })
          .build(),
      ),
    ).toBe('E_SCHEMA');
  });

  it('refuses misuse with a SwitchyardError', () => {
    const caught = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return isSwitchyardError(error) ? error.code : 'other';
      }
      return 'none';
    };
    const base = () => dag('urn:x', { name: 'x', version: '1' });
    expect(caught(() => base().route('ok', 'x'))).toBe('E_USAGE');
    expect(caught(() => base().terminal('end', 'failed').route('ok', 'x'))).toBe('E_USAGE');
    expect(caught(() => base().from('nope'))).toBe('E_USAGE');
    expect(caught(() => base().task('a', N('a')).task('a', N('a')))).toBe('E_DUPLICATE_KEY');
    expect(caught(() => base().entry('a').task('a', 'not an iri').build())).toBe('E_SCHEMA');
  });
});

describe('benchmark generator', () => {
  it('makes exactly the number of placements asked for, all valid', async () => {
    for (const n of [4, 5, 11, 57]) {
      const generated = generateDag(n);
      expect(generated.placements).toHaveLength(n);
      expect((await loadDagText(JSON.stringify(generateDocument(n)))).dag).toStrictEqual(generated);
    }
  });

  it('routes every placement to a target that exists, with budgets declared for every retry', () => {
    const generated = generateDag(300);
    const keys = new Set(generated.placements.map((p) => p.key));
    const budgets = new Set(generated.budgets.map((b) => b.name));
    const routes = generated.placements.flatMap((p) => p.routes);
    expect(routes.every((r) => keys.has(r.to))).toBe(true);
    expect(
      routes.filter((r) => r.kind === 'retry').every((r) => r.budget && budgets.has(r.budget) && r.exhausted),
    ).toBe(true);
    expect(generated.placements.filter((p) => p.kind === 'scatter')).not.toHaveLength(0);
  });

  it('reaches every placement from the entrypoint, and a terminal from every placement', () => {
    const generated = generateDag(250);
    const next = new Map(
      generated.placements.map((p) => [
        p.key,
        p.routes.flatMap((r) => (r.exhausted ? [r.to, r.exhausted] : [r.to])),
      ]),
    );
    const reach = (from: string[], edges: Map<string, string[]>) => {
      const seen = new Set(from);
      const stack = [...from];
      for (let key = stack.pop(); key !== undefined; key = stack.pop()) {
        for (const to of edges.get(key) ?? []) if (!seen.has(to)) stack.push(to) && seen.add(to);
      }
      return seen;
    };
    expect(reach([...generated.entrypoints], next).size).toBe(generated.placements.length);
    const back = new Map<string, string[]>();
    for (const [from, tos] of next) for (const to of tos) back.set(to, [...(back.get(to) ?? []), from]);
    const terminals = generated.placements.filter((p) => p.kind === 'terminal').map((p) => p.key);
    expect(reach(terminals, back).size).toBe(generated.placements.length);
  });

  it('only closes cycles through budgeted retry routes', () => {
    const generated = generateDag(250);
    const forward = new Map(
      generated.placements.map((p) => [p.key, p.routes.filter((r) => r.kind !== 'retry').map((r) => r.to)]),
    );
    const state = new Map<string, 'open' | 'done'>();
    const acyclic = (key: string): boolean => {
      if (state.get(key) === 'done') return true;
      if (state.get(key) === 'open') return false;
      state.set(key, 'open');
      const ok = (forward.get(key) ?? []).every(acyclic);
      state.set(key, 'done');
      return ok;
    };
    expect(generated.placements.every((p) => acyclic(p.key))).toBe(true);
  });

  it('gives an expanded form that loads to the same model', async () => {
    const expanded = await generateExpanded(40);
    const { dag: loaded, form } = await loadDagText(JSON.stringify(expanded));
    expect(form).toBe('jsonld');
    expect(loaded).toStrictEqual(generateDag(40));
  });
});
