import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

describe('switchyard inspect', () => {
  it('shows the multiplied bound of a loop nested in a loop', async () => {
    const { code, out } = await runCli(['inspect', 'dags/nested-retry.jsonld']);
    expect(code).toBe(0);
    expect(out).toMatch(/execute\s+task\s+12 /);
    expect(out).toMatch(/plan\s+task\s+3 /);
    expect(out).toContain('budget step ≤ 3 (≤ 9 per item with resets)');
    expect(out).toContain('check --rejected--> plan  [replan ≤ 2, exhausted → gave_up, resets step]');
  });

  it('adds the worst-case time with a policy, and reports as JSON', async () => {
    const { code, out } = await runCli([
      'inspect',
      'dags/compose-validate.jsonld',
      '--policy',
      'dags/compose-validate.policy.json',
      '--json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as {
      worstCaseTimeMs: number;
      placements: { key: string; worstCaseExecutions: number | null }[];
    };
    expect(report.placements.find((p) => p.key === 'compose')?.worstCaseExecutions).toBe(6);
    expect(report.worstCaseTimeMs).toBeGreaterThan(0);
  });

  it('says how long an item alone waits at its gates, inside the deadlines, and as JSON', async () => {
    const policy = JSON.stringify({
      defaults: {
        deadlineMs: 10_000,
        backoff: { strategy: 'constant', baseMs: 100, capMs: 100 },
        jitter: 'none',
        retryAfter: { honour: true, capMs: 30_000 },
      },
      placements: { compose: { deadlineMs: 60_000 } },
      gates: {
        llm: {
          nodes: ['urn:switchyard:node:compose', 'urn:switchyard:node:validate'],
          rate: { limit: 20 },
          maxClosedMs: 20_000,
        },
      },
    });
    const args = ['inspect', 'dags/compose-validate.jsonld', '--policy', '-'];
    const { code, out } = await runCli(args, undefined, { stdin: policy });
    expect(code).toBe(0);
    // 6 compose × 60 s + 4 validate × 10 s + 1 salvage × 10 s, 1 ms more per gated execution, 5 waits of 30 s.
    expect(out).toContain(
      'Worst-case time per item with <stdin>: 9 min 20 s (executions 6 min 50 s, back-off waits 2 min 30 s)',
    );
    expect(out).toContain(
      'Gate waits, inside the deadlines above (one visit of an item alone at its gates):\n' +
        '  gate llm at compose: 6 visits, each ≤ 20.1 s (closed ≤ 20.0 s, pace 50 ms)\n' +
        '  gate llm at validate: 4 visits, each ≤ 20.1 s (closed ≤ 20.0 s, pace 50 ms); its 10.0 s deadline ends a longer wait (the item takes its timeout route)\n',
    );
    const json = await runCli([...args, '--json'], undefined, { stdin: policy });
    const report = JSON.parse(json.out) as { worstCaseTimeMs: number; gateWaits: unknown[] };
    expect(report.worstCaseTimeMs).toBe(560_010);
    expect(report.gateWaits[0]).toEqual({
      gate: 'llm',
      dag: 'urn:switchyard:dag:compose-validate',
      placement: 'compose',
      visits: 6,
      deadlineMs: 60_000,
      closedMs: 20_000,
      intervalMs: 50,
      aloneMs: 20_050,
    });
  });

  it('prints gate waits near the largest double as numbers, never Infinity or NaN', async () => {
    const policy = JSON.stringify({
      defaults: { deadlineMs: 1000 },
      gates: { g: { placements: ['compose'], maxClosedMs: 1.7e308, rate: { limit: 1, periodMs: 1.7e308 } } },
    });
    const args = ['inspect', 'dags/compose-validate.jsonld', '--policy', '-'];
    const { code, out } = await runCli(args, undefined, { stdin: policy });
    expect(code).toBe(0);
    expect(out).toContain(
      'gate g at compose: 6 visits, each ≤ 1.80e+308 ms (closed ≤ 1.70e+308 ms, pace 1.70e+308 ms)',
    );
    expect(out).not.toMatch(/Infinity|NaN/);
    const json = await runCli([...args, '--json'], undefined, { stdin: policy });
    const report = JSON.parse(json.out) as { gateWaits: { aloneMs: number }[] };
    expect(report.gateWaits[0]?.aloneMs).toBe(Number.MAX_VALUE);
  });

  it('reports every problem of a policy file on a line of its own, with its position', async () => {
    const { code, err } = await runCli([
      'inspect',
      'dags/compose-validate.jsonld',
      '--policy',
      'test/fixtures/policies/invalid.json',
    ]);
    expect(code).toBe(1);
    const lines = err.trimEnd().split('\n');
    expect(
      lines
        .slice(0, -1)
        .every((l) => /^test\/fixtures\/policies\/invalid\.json:\d+:\d+ error E_POLICY /.test(l)),
    ).toBe(true);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.at(-1)).toBe(
      `switchyard: test/fixtures/policies/invalid.json: ${lines.length - 1} problems; fix them and run again (E_POLICY)`,
    );
  });

  it('refuses an invalid document with its problems, one a line', async () => {
    const { code, err } = await runCli(['inspect', 'test/fixtures/invalid/E_UNBOUNDED_LOOP.jsonld']);
    expect(code).toBe(1);
    expect(err).toContain('E_UNBOUNDED_LOOP');
    expect(err).not.toContain('    at ');
  });
});

describe('switchyard hash and export', () => {
  it('gives the same hash for the canonical, expanded and aliased forms', async () => {
    const hashes = await Promise.all(
      [
        'dags/compose-validate.jsonld',
        'test/fixtures/forms/compose-validate.expanded.jsonld',
        'test/fixtures/forms/compose-validate.aliased.jsonld',
      ].map(async (file) => (await runCli(['hash', file])).out.split(' ')[0]),
    );
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(hashes).size).toBe(1);
  });

  it('exports N-Quads holding every route', async () => {
    const { code, out } = await runCli(['export', 'dags/compose-validate.jsonld', '--format', 'nquads']);
    expect(code).toBe(0);
    expect(out.match(/<https:\/\/w3id\.org\/switchyard\/vocab#hasRoute>/g)?.length).toBe(8);
  });

  it('rejects an unknown export format with exit 2', async () => {
    const { code, err } = await runCli(['export', 'dags/compose-validate.jsonld', '--format', 'yaml']);
    expect(code).toBe(2);
    expect(err).toContain('Allowed choices are compact, expanded, nquads');
  });

  it("counts an await's deadline per visit in the worst-case time, and lists its waits, as text and JSON", async () => {
    const args = ['inspect', 'dags/approval.jsonld', '--policy', 'dags/approval.policy.json'];
    const { code, out } = await runCli(args);
    expect(code).toBe(0);
    expect(out).toMatch(/review\s+await\s+3 {2}answers approved \| rejected \| revise/);
    expect(out).toContain(
      'Await waits, each ended by its deadline when no answer comes (counted above):\n' +
        '  await review: 3 visits, each ≤ 1440 min, ≤ 4320 min in all',
    );
    const json = await runCli([...args, '--json']);
    const report = JSON.parse(json.out) as {
      worstCaseTimeMs: number;
      placements: { key: string; answers?: string[] }[];
      awaitWaits: unknown[];
    };
    expect(report.placements.find((p) => p.key === 'review')?.answers).toEqual([
      'approved',
      'rejected',
      'revise',
    ]);
    expect(report.awaitWaits).toEqual([
      { dag: 'urn:switchyard:dag:approval', placement: 'review', visits: 3, deadlineMs: 86_400_000 },
    ]);
    // 3 waits of a day, 4 executions of 30 s (draft 3, escalate 1), the back-off before 2 revisions.
    expect(report.worstCaseTimeMs).toBeGreaterThanOrEqual(3 * 86_400_000 + 4 * 30_000);
  });

  it('says an await with no deadline leaves the time unbounded', async () => {
    const args = ['inspect', 'dags/approval.jsonld', '--policy', '-'];
    const { code, out } = await runCli(args, undefined, {
      stdin: '{ "defaults": { "deadlineMs": 1000 } , "placements": { "review": { "deadlineMs": null } } }',
    });
    expect(code).toBe(0);
    expect(out).toContain("Worst-case time per item: unbounded — await placement 'review' has no deadline");
    expect(out).toContain('await review: 3 visits, no deadline, so a wait nobody answers never ends');
  });
});
