import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const INVALID = 'test/fixtures/invalid';
const NODES = join(INVALID, 'nodes.ts');
const fixtures = readdirSync(INVALID).filter((f) => f.endsWith('.jsonld'));
// Documents whose problem only shows when node implementations are given.
const NEEDS_NODES = new Set(['E_UNKNOWN_NODE', 'W_UNROUTED_OUTPUT']);

describe('switchyard validate', () => {
  it('accepts every shipped document', async () => {
    const { code, out } = await runCli(['validate', 'dags']);
    expect(out).toMatch(/documents checked: all valid, 0 errors/);
    expect(code).toBe(0);
  });

  it('has an invalid fixture for every document-level error code', () => {
    const codes = fixtures.map((f) => f.replace(/\.jsonld$/, ''));
    for (const code of [
      'E_JSON_SYNTAX',
      'E_SCHEMA',
      'E_JSONLD',
      'E_CONTEXT_REFUSED',
      'E_JSONLD_LOSSY',
      'E_UNBOUNDED_LOOP',
    ]) {
      expect(codes).toContain(code);
    }
  });

  it.each(fixtures)('%s: names its code, file and location, and exits 1 on errors', async (fixture) => {
    const code = fixture.replace(/\.jsonld$/, '');
    const file = join(INVALID, fixture);
    const args = NEEDS_NODES.has(code) ? ['validate', '--nodes', NODES, file] : ['validate', file];
    const result = await runCli(args);
    const line = result.out.split('\n').find((l) => l.includes(` ${code} `));
    expect(line, result.out + result.err).toBeDefined();
    expect(line).toContain(file);
    expect(line).toMatch(new RegExp(`${file}:\\d+:\\d+ `));
    expect(result.code).toBe(code.startsWith('W_') ? 0 : 1);
    expect(result.err).not.toMatch(/\n\s+at /);
  });

  it('prints JSON reports with --json', async () => {
    const { code, out } = await runCli(['validate', '--json', join(INVALID, 'E_UNBOUNDED_LOOP.jsonld')]);
    const reports = JSON.parse(out) as { valid: boolean; problems: { code: string; cycle?: string[] }[] }[];
    expect(reports[0]?.valid).toBe(false);
    expect(reports[0]?.problems[0]?.code).toBe('E_UNBOUNDED_LOOP');
    expect(reports[0]?.problems[0]?.cycle?.length).toBeGreaterThan(1);
    expect(code).toBe(1);
  });

  it('reports a missing file in one line, without a stack trace', async () => {
    const { code, out, err } = await runCli(['validate', 'no/such/file.jsonld']);
    expect(out + err).toContain('E_FILE_NOT_FOUND');
    expect(out + err).not.toContain('    at ');
    expect(code).toBe(1);
  });
});

describe('switchyard validate, await placements', () => {
  it('refuses an await without a deadline route, naming it', async () => {
    const file = join(INVALID, 'E_AWAIT_DEADLINE_ROUTE.jsonld');
    const { code, out } = await runCli(['validate', file]);
    expect(out).toContain(
      `${file}:14:7 error E_AWAIT_DEADLINE_ROUTE await placement 'approve' has no route on output 'deadline'`,
    );
    expect(out).toContain(
      "add a route on output 'deadline' (e.g. to an escalation task or a failed terminal)",
    );
    expect(code).toBe(1);
  });

  it('accepts an await whose policy gives it a deadline', async () => {
    const args = ['validate', 'dags/approval.jsonld', '--policy', 'dags/approval.policy.json'];
    const { code, out } = await runCli(args);
    expect(out).toBe('1 document and 1 policy checked: all valid, 0 errors, 0 warnings\n');
    expect(code).toBe(0);
  });

  it('refuses a policy that gives an await no deadline, naming the placement and where to give one', async () => {
    const args = ['validate', 'dags/approval.jsonld', '--policy', '-'];
    const { code, out } = await runCli(args, undefined, {
      stdin: '{ "placements": { "draft": { "deadlineMs": 5 } } }',
    });
    expect(out).toContain(
      "<stdin> error E_AWAIT_NO_DEADLINE await placement 'review' has no deadline: give it deadlineMs in the policy's placements",
    );
    expect(out).toContain('1 document and 1 policy checked: 1 invalid, 1 error, 0 warnings');
    expect(code).toBe(1);
  });

  it('points at the override whose null deadline leaves the await without one, in JSON too', async () => {
    const policy =
      '{\n  "defaults": { "deadlineMs": 5 },\n  "placements": {\n    "review": { "deadlineMs": null }\n  }\n}\n';
    const args = ['validate', 'dags/approval.jsonld', '--policy', '-', '--json'];
    const { code, out } = await runCli(args, undefined, { stdin: policy });
    const reports = JSON.parse(out) as { kind?: string; problems: Record<string, unknown>[] }[];
    expect(reports.find((r) => r.kind === 'policy')?.problems).toMatchObject([
      { code: 'E_AWAIT_NO_DEADLINE', placement: 'review', pointer: '/placements/review', line: 4 },
    ]);
    expect(code).toBe(1);
  });

  it('without --policy checks only the deadline route: the deadline is the policy’s to give', async () => {
    const { code, out } = await runCli(['validate', 'dags/approval.jsonld']);
    expect(out).toBe('1 document checked: all valid, 0 errors, 0 warnings\n');
    expect(code).toBe(0);
  });
});
