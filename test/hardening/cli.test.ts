import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_PROBLEM, EXIT_USAGE } from '../../src/cli/exit-code.ts';
import { readPolicyFile } from '../../src/policy/load.ts';
import { timingFor } from '../../src/policy/resolve.ts';
import { safeStringify } from '../../src/safe-json.ts';
import { runMain } from '../archivist/run-main.ts';
import { runCli } from '../cli/run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CV = join(ROOT, 'dags/compose-validate.jsonld');
const VERSION = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
const exec = promisify(execFile);

/** Runs a program of bin/ as a real process; resolves with its exit code and output, whatever the code. */
async function runBin(
  program: 'switchyard' | 'archivist',
  args: readonly string[],
  cwd = ROOT,
): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [join(ROOT, 'bin', `${program}.js`), ...args], {
      cwd,
    });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, err: e.stderr };
  }
}

/** A user mistake: the expected code, exactly one line on stderr matching `message`, no stack trace. */
function expectOneLine(result: { code: number; out: string; err: string }, code: number, message: RegExp) {
  expect(result.code, result.err).toBe(code);
  const lines = result.err.trimEnd().split('\n');
  expect(lines, result.err).toHaveLength(1);
  expect(result.err).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(message);
}

// Node implementations for compose-validate written into the test folder: `compose` puts values JSON cannot
// hold into the item, `validate` throws on its first visit and accepts from the second.
const WEIRD_NODES = `
export const nodes = [
  { id: 'urn:switchyard:node:compose', outputs: ['drafted'], run: (item) => {
      if (item.data.weird !== true) return 'drafted';
      item.data.big = 12345678901234567890n;
      item.data.self = item.data;
      item.data.fn = () => 1;
      item.data.when = new Date(0);
      item.data.nothing = undefined;
      item.data.list = [1n, () => 2, undefined];
      return 'drafted';
  } },
  { id: 'urn:switchyard:node:validate', outputs: ['valid', 'invalid'], run: (item, ctx) => {
      if (item.data.topic === 'broken') throw new Error('validator is down\\nfor good');
      if (ctx.visit < 2) throw Object.assign(new Error('validator hiccup'), { status: 503 });
      return 'valid';
  } },
  { id: 'urn:switchyard:node:salvage', outputs: ['salvaged'], run: (item) => {
      if (item.data.topic === 'broken') throw new Error('salvage failed too');
      return 'salvaged';
  } },
];
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-hardening-cli-'));
  await copyFile(CV, join(dir, 'cv.jsonld'));
  await writeFile(join(dir, 'weird.ts'), WEIRD_NODES);
  await writeFile(
    join(dir, 'cv.policy.json'),
    JSON.stringify({ defaults: { backoff: { strategy: 'constant', baseMs: 1, capMs: 1 }, jitter: 'none' } }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--version', () => {
  it('switchyard and archivist print the package version and exit 0 (real processes)', async () => {
    const runs = ['switchyard', 'archivist'].flatMap((program) =>
      ['--version', '-V'].map(async (flag) => ({
        program,
        result: await runBin(program as 'switchyard' | 'archivist', [flag]),
      })),
    );
    for (const { program, result } of await Promise.all(runs)) {
      expect(result, program).toEqual({ code: 0, out: `${VERSION}\n`, err: '' });
    }
  });

  it('in process too', async () => {
    expect(await runCli(['--version'])).toEqual({ code: 0, out: `${VERSION}\n`, err: '' });
    const archivist = await runMain(['--version']);
    expect([archivist.code, archivist.out, archivist.err]).toEqual([0, `${VERSION}\n`, '']);
  });
});

describe('exit codes: 2 for a wrong command line, 1 for a problem in what it names', () => {
  it('switchyard: a flag value that is not allowed is a usage error, whatever the files hold', async () => {
    const seed = await runCli(['run', 'nope.jsonld', '--nodes', 'nope.ts', '--seed', 'abc'], dir);
    expectOneLine(seed, EXIT_USAGE, /^switchyard: --seed must be a whole number/);
    const theme = await runCli(['render', 'cv.jsonld', '-o', 'x.mmd', '--theme', 'pink'], dir);
    expectOneLine(theme, EXIT_USAGE, /^switchyard: --theme pink is not supported/);
    const unknown = await runCli(['hash', 'cv.jsonld', '--frobnicate'], dir);
    expect(unknown.code).toBe(EXIT_USAGE);
  });

  it('switchyard: a missing document or a bad input is a problem', async () => {
    expectOneLine(await runCli(['hash', 'nope.jsonld'], dir), EXIT_PROBLEM, /no such file/);
    const input = await runCli(
      ['run', 'cv.jsonld', '--nodes', 'weird.ts', '--no-store', '--input', '[]'],
      dir,
    );
    expectOneLine(input, EXIT_PROBLEM, /--input has no items/);
    // 1e400 parses as Infinity, which item data cannot hold: refused before the run, with where it is.
    const infinite = await runCli(
      ['run', 'cv.jsonld', '--nodes', 'weird.ts', '--no-store', '--input', '[{"ok":1},{"n":[1e400]}]'],
      dir,
    );
    expectOneLine(
      infinite,
      EXIT_PROBLEM,
      /^switchyard: --input\[1\] holds Infinity at \/n\/0, .*\(E_ITEM_DATA\)$/,
    );
    const one = await runCli(
      ['run', 'cv.jsonld', '--nodes', 'weird.ts', '--no-store', '--input', '{"n":{"m":-1e400}}'],
      dir,
    );
    expectOneLine(one, EXIT_PROBLEM, /^switchyard: --input holds -Infinity at \/n\/m, .*\(E_ITEM_DATA\)$/);
  });

  it('archivist follows the same convention', async () => {
    const seed = await runMain(['ask', '--seed', 'abc', 'books by George Orwell']);
    expect(seed.code).toBe(EXIT_USAGE);
    const unknown = await runMain(['ask', '--frobnicate', 'x']);
    expect(unknown.code).toBe(EXIT_USAGE);
    const catalog = await runMain([
      'ask',
      '--catalog',
      join(dir, 'no-catalog.json'),
      'books by George Orwell',
    ]);
    expectOneLine(
      catalog,
      EXIT_PROBLEM,
      /^archivist: no such file: .*no-catalog\.json — check the path given to --catalog \(E_FILE_NOT_FOUND\)$/,
    );
  });

  it('both programs as real processes: usage 2, problem 1', async () => {
    const codes = await Promise.all([
      runBin('switchyard', ['run', 'dags/checkout.jsonld', '--nodes', 'x.ts', '--deadline', '-1']),
      runBin('switchyard', ['hash', 'no-such.jsonld']),
      runBin('archivist', ['ask', '--flaky', '7', 'x']),
      runBin('archivist', ['ask', '--catalog', 'no-such.json', 'x']),
    ]);
    expect(codes.map((c) => c.code)).toEqual([EXIT_USAGE, EXIT_PROBLEM, EXIT_USAGE, EXIT_PROBLEM]);
  });
});

describe('every refusal is one line with a code', () => {
  it('usage errors from commander and from the commands, and problems in input, on both programs', async () => {
    const results = [
      await runCli(['hash', 'cv.jsonld', '--frobnicate'], dir),
      await runCli(['export', 'cv.jsonld', '--format', 'yaml'], dir),
      await runCli(['run', 'cv.jsonld'], dir),
      await runCli(['run', 'cv.jsonld', '--nodes', 'weird.ts', '--no-store', '--seed', '1.5'], dir),
      await runCli(['hash', 'nope.jsonld'], dir),
      await runMain(['ask', '--frobnicate', 'x']),
      await runMain(['ask', '--seed', 'abc', 'x']),
    ];
    for (const result of results) {
      expect(result.code, result.err).not.toBe(0);
      const lines = result.err.trimEnd().split('\n');
      expect(lines, result.err).toHaveLength(1);
      expect(lines[0]).toMatch(/^(switchyard|archivist): .* \(E_[A-Z_]+\)$/u);
    }
    expect(results[0]?.err).toBe(
      "switchyard: unknown option '--frobnicate' — run switchyard --help for usage (E_USAGE)\n",
    );
  });
});

describe('render refuses special and non-writable paths at once', () => {
  it('--out-dir under /proc is one E_WRITE line, not a hang', async () => {
    for (const out of ['/proc/switchyard-out', '/proc/switchyard-out/deeper', '/proc']) {
      const result = await runCli(['render', 'cv.jsonld', '--out-dir', out, '--format', 'mmd'], dir);
      expectOneLine(
        result,
        EXIT_PROBLEM,
        /^switchyard: cannot write \/proc.*: that folder does not take new files/,
      );
      expect(result.out).toBe('');
    }
  });

  it('-o under /proc is refused before any rendering', async () => {
    // A Chromium that does not exist would be the first failure of a command that rendered before checking.
    const result = await runCli(
      ['render', 'cv.jsonld', '-o', '/proc/switchyard.svg', '--chromium', join(dir, 'no-chromium')],
      dir,
    );
    expectOneLine(result, EXIT_PROBLEM, /^switchyard: cannot write \/proc\/switchyard\.svg: /);
  });

  it('a FIFO as -o or --events is refused instead of waiting for a reader', async () => {
    const fifo = join(dir, 'pipe.mmd');
    await exec('mkfifo', [fifo]);
    expectOneLine(
      await runCli(['render', 'cv.jsonld', '-o', 'pipe.mmd'], dir),
      EXIT_PROBLEM,
      /^switchyard: cannot write pipe\.mmd: it is not a regular file .* — name a regular file to write \(E_WRITE\)$/,
    );
    expectOneLine(
      await runCli(['run', 'cv.jsonld', '--nodes', 'weird.ts', '--no-store', '--events', 'pipe.mmd'], dir),
      EXIT_PROBLEM,
      /^switchyard: cannot write .*pipe\.mmd: it is not a regular file/,
    );
  });

  it('a FIFO as --trace, --input @file or --policy is refused instead of waiting for a writer', async () => {
    const fifo = join(dir, 'in.fifo');
    await exec('mkfifo', [fifo]);
    expectOneLine(
      await runCli(['render', 'cv.jsonld', '-o', 'traced.mmd', '--trace', 'in.fifo'], dir),
      EXIT_PROBLEM,
      /^switchyard: cannot read trace .*in\.fifo: it is not a regular file/,
    );
    expectOneLine(
      await runCli(['run', 'cv.jsonld', '--nodes', 'weird.ts', '--no-store', '--input', '@in.fifo'], dir),
      EXIT_PROBLEM,
      /^switchyard: input file in\.fifo is not a regular file/,
    );
    expectOneLine(
      await runCli(['inspect', 'cv.jsonld', '--policy', 'in.fifo'], dir),
      EXIT_PROBLEM,
      /^switchyard: policy file in\.fifo is not a regular file/,
    );
  });

  it('-o x.svg --format png is refused, naming both', async () => {
    const result = await runCli(['render', 'cv.jsonld', '-o', 'f.svg', '--format', 'png'], dir);
    expectOneLine(result, EXIT_USAGE, /^switchyard: -o f\.svg says svg but --format says png: /);
    // An unknown format is named as unknown, not offered as the path's extension.
    const unknown = await runCli(['render', 'cv.jsonld', '-o', 'f.svg', '--format', 'bogus'], dir);
    expectOneLine(
      unknown,
      EXIT_USAGE,
      /^switchyard: --format bogus is not supported: use one of svg, png, mmd/,
    );
    const agreeing = await runCli(['render', 'cv.jsonld', '-o', 'f.mmd', '--format', 'mmd'], dir);
    expect(agreeing.code, agreeing.err).toBe(0);
    expect(await readFile(join(dir, 'f.mmd'), 'utf8')).toMatch(/^%%\{init/);
  });
});

describe('run --json with values JSON cannot hold', () => {
  it('a node leaving them takes its error route, with the data as JSON holds it: BigInt as text, ISO dates', async () => {
    const result = await runCli(
      [
        'run',
        'cv.jsonld',
        '--nodes',
        'weird.ts',
        '--no-store',
        '--input',
        '{"topic":"whales","weird":true}',
        '--json',
        '--events',
        'weird.jsonl',
      ],
      dir,
    );
    const events = (await readFile(join(dir, 'weird.jsonl'), 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The breach is compose's error (E_ITEM_DATA, naming the placement and the value), and its error route
    // (a salvage) is what the item takes.
    const composeEnd = events.find((e) => e.type === 'placement.end' && e.placement === 'compose');
    expect(composeEnd).toMatchObject({
      output: 'error',
      error: {
        code: 'E_ITEM_DATA',
        message: expect.stringMatching(
          /^the node at placement 'compose' left item data that holds a BigInt at \/big,/u,
        ),
      },
    });
    const routes = events.filter((e) => e.type === 'route' || e.type === 'salvage');
    expect(routes.map((e) => [e.type, e.from, e.output, e.to])).toEqual([
      ['route', 'compose', 'error', 'salvage'],
      ['salvage', 'compose', undefined, 'salvage'],
      ['route', 'salvage', 'salvaged', 'salvaged'],
    ]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.out) as {
      items: { terminal: string; data: Record<string, unknown> }[];
    };
    expect(printed.items[0]?.terminal).toBe('salvaged');
    const data = printed.items[0]?.data;
    expect(data).toMatchObject({
      topic: 'whales',
      big: '12345678901234567890',
      self: '[Circular]',
      when: '1970-01-01T00:00:00.000Z',
      list: ['1', null, null],
    });
    expect(data).not.toHaveProperty('fn');
    expect(data).not.toHaveProperty('nothing');
  });

  it('safeStringify survives getters that throw, deep nesting and prototype-named keys', () => {
    const value: Record<string, unknown> = JSON.parse('{"__proto__": {"x": 1}, "constructor": 2}');
    Object.defineProperty(value, 'trap', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    let deep: Record<string, unknown> = {};
    value.deep = deep;
    for (let i = 0; i < 20_000; i++) {
      const next = {};
      deep.d = next;
      deep = next;
    }
    const parsed = JSON.parse(safeStringify(value)) as Record<string, unknown>;
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(parsed.constructor).toBe(2);
    expect(parsed.trap).toBe('[unreadable: no]');
    expect(safeStringify(value)).toContain('[nested too deep]');
  });
});

describe('the run summary shows what nodes threw', () => {
  it('one line per failed item with its last error, and the last error of items that recovered', async () => {
    const result = await runCli(
      [
        'run',
        'cv.jsonld',
        '--nodes',
        'weird.ts',
        '--no-store',
        '--input',
        '[{"topic":"whales"},{"topic":"broken"}]',
      ],
      dir,
    );
    expect(result.code).toBe(1);
    const lines = result.out.trimEnd().split('\n');
    expect(lines).toContain(
      "  item 1 completed after 1 error; last at 'validate': E_NODE_ERROR validator hiccup",
    );
    expect(lines).toContain(
      "  failed: item 2 ended at 'failed': last error at 'salvage': E_NODE_ERROR salvage failed too (2 errors)",
    );
  });
});

describe('node modules that cannot be imported', () => {
  it('a TypeScript syntax error is one line: file:line:col, the cause and a fix', async () => {
    await writeFile(
      join(dir, 'syntax.ts'),
      'export const nodes = [\n  { id: "x", outputs: [] \n  const y = ;\n];\n',
    );
    const result = await runCli(['run', 'cv.jsonld', '--nodes', 'syntax.ts'], dir);
    expectOneLine(
      result,
      EXIT_PROBLEM,
      /^switchyard: syntax\.ts:3:3: syntax error: Expected "}" but found "const" — fix the syntax there; .*\(node module syntax\.ts\) \(E_NODE_MODULE\)$/,
    );
  });

  it('a JavaScript syntax error names its file and line too', async () => {
    await writeFile(join(dir, 'syntax.mjs'), 'export const nodes = [];\nconst = 3;\n');
    const result = await runCli(['run', 'cv.jsonld', '--nodes', 'syntax.mjs'], dir);
    expectOneLine(result, EXIT_PROBLEM, /^switchyard: syntax\.mjs:2(:\d+)?: syntax error: /);
  });

  it('a JavaScript module written as ESM outside a "type": "module" package loads, its syntax errors located', async () => {
    await writeFile(join(dir, 'esm-nodes.js'), WEIRD_NODES);
    const ok = await runCli(['run', 'cv.jsonld', '--nodes', 'esm-nodes.js', '--no-store'], dir);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    await writeFile(join(dir, 'esm-bad.js'), 'export const nodes = [];\nexport const = 3;\n');
    expectOneLine(
      await runCli(['run', 'cv.jsonld', '--nodes', 'esm-bad.js'], dir),
      EXIT_PROBLEM,
      /^switchyard: esm-bad\.js:2:14: syntax error: .* — fix the syntax there; `node --check <file>` shows it/,
    );
  });

  it('a module that throws at import says so, with its message', async () => {
    await writeFile(join(dir, 'throws.ts'), 'throw new RangeError("no config");\nexport const nodes = [];\n');
    const result = await runCli(['run', 'cv.jsonld', '--nodes', 'throws.ts'], dir);
    expectOneLine(
      result,
      EXIT_PROBLEM,
      /^switchyard: throws\.ts: the module threw when imported: RangeError: no config — fix the module's top-level code/,
    );
  });

  it('a module exporting nothing usable says what it exports, or which entry is wrong', async () => {
    await writeFile(join(dir, 'other.ts'), 'export const handlers = [];\nexport const x = 1;\n');
    expectOneLine(
      await runCli(['run', 'cv.jsonld', '--nodes', 'other.ts'], dir),
      EXIT_PROBLEM,
      /exports no nodes \(it exports `handlers`, `x`\) — export `nodes`/,
    );
    await writeFile(
      join(dir, 'half.ts'),
      'export const nodes = [{ id: "a", outputs: [], run: () => "a" }, 42];\n',
    );
    expectOneLine(
      await runCli(['run', 'cv.jsonld', '--nodes', 'half.ts'], dir),
      EXIT_PROBLEM,
      /`nodes\[1\]` is number, not a node/,
    );
    await writeFile(
      join(dir, 'trap.ts'),
      'export const nodes = new Proxy([], { get() { throw new Error("trap"); } });\n',
    );
    expectOneLine(
      await runCli(['run', 'cv.jsonld', '--nodes', 'trap.ts'], dir),
      EXIT_PROBLEM,
      /^switchyard: node module trap\.ts: reading its exports threw: trap — /,
    );
  });
});

describe('what nodes say reaches the summary and the events file safely', () => {
  it('terminal escapes in an error message are shown as ?; a BigInt reason is written to --events', async () => {
    await writeFile(
      join(dir, 'noisy.ts'),
      `export const nodes = [
  { id: 'urn:switchyard:node:compose', outputs: ['drafted'], run: () => ({ output: 'drafted', reason: { n: 5n } }) },
  { id: 'urn:switchyard:node:validate', outputs: ['valid', 'invalid'], run: () => { throw new Error('\\u001b[2Jgone\\u0007'); } },
  { id: 'urn:switchyard:node:salvage', outputs: ['salvaged'], run: () => 'salvaged' },
];
`,
    );
    const result = await runCli(['run', 'cv.jsonld', '--nodes', 'noisy.ts', '--events', 'noisy.jsonl'], dir);
    expect(result.err).toBe('');
    expect(result.out.replaceAll('\n', '')).not.toMatch(/\p{Cc}/u);
    expect(result.out).toContain("last at 'validate': E_NODE_ERROR ?[2Jgone?");
    const events = (await readFile(join(dir, 'noisy.jsonl'), 'utf8')).trim().split('\n');
    expect(events.map((line) => (JSON.parse(line) as { type: string }).type)).toContain('run.end');
  });
});

/** compose-validate with placements renamed (`from` → `to`), every reference to them included. */
async function renamedCv(renames: Record<string, string>): Promise<string> {
  const names = new Map(Object.entries(renames));
  const name = (key: string) => names.get(key) ?? key;
  const doc = JSON.parse(await readFile(CV, 'utf8')) as {
    entrypoints: string[];
    placements: { key: string; routes?: { to: string; exhausted?: string }[] }[];
  };
  doc.entrypoints = doc.entrypoints.map(name);
  for (const placement of doc.placements) {
    placement.key = name(placement.key);
    for (const route of placement.routes ?? []) {
      route.to = name(route.to);
      if (route.exhausted !== undefined) route.exhausted = name(route.exhausted);
    }
  }
  return JSON.stringify(doc, null, 2);
}

describe('policy keys that name nothing in the document', () => {
  const POLICY = `{
  "placements": {
    "compse": { "deadlineMs": 1000 },
    "urn:switchyard:dag:compose-validate#valdate": { "deadlineMs": 50 },
    "validate": { "deadlineMs": 50 }
  },
  "nodes": { "urn:switchyard:node:compose": {}, "urn:switchyard:node:salvag": { "deadlineMs": 5 } }
}
`;

  it('run refuses them before running, each at its line and column with a suggestion', async () => {
    await writeFile(join(dir, 'typo.policy.json'), POLICY);
    const result = await runCli(
      [
        'run',
        'cv.jsonld',
        '--nodes',
        'weird.ts',
        '--no-store',
        '--policy',
        'typo.policy.json',
        '--events',
        'typo.jsonl',
      ],
      dir,
    );
    expect(result.code).toBe(EXIT_PROBLEM);
    expect(result.out).toBe('');
    expect(result.err.trimEnd().split('\n')).toEqual([
      "typo.policy.json:3:5 error E_POLICY_UNKNOWN_KEY placement override 'compse' names no placement of urn:switchyard:dag:compose-validate — did you mean 'compose'? (at /placements/compse)",
      "typo.policy.json:4:5 error E_POLICY_UNKNOWN_KEY placement override 'urn:switchyard:dag:compose-validate#valdate': urn:switchyard:dag:compose-validate has no placement 'valdate' — did you mean 'urn:switchyard:dag:compose-validate#validate'? (at /placements/urn:switchyard:dag:compose-validate#valdate)",
      "typo.policy.json:7:49 error E_POLICY_UNKNOWN_KEY node override 'urn:switchyard:node:salvag' names no node placed in urn:switchyard:dag:compose-validate — did you mean 'urn:switchyard:node:salvage'? (at /nodes/urn:switchyard:node:salvag)",
      'switchyard: typo.policy.json: 3 problems; fix them and run again (E_POLICY_UNKNOWN_KEY)',
    ]);
    await expect(readFile(join(dir, 'typo.jsonl'))).rejects.toThrow();
  });

  it('inspect --policy refuses them too; one problem is one line', async () => {
    await writeFile(join(dir, 'one.policy.json'), '{ "placements": { "Validate": { "deadlineMs": 5 } } }\n');
    const result = await runCli(['inspect', 'cv.jsonld', '--policy', 'one.policy.json'], dir);
    expectOneLine(
      result,
      EXIT_PROBLEM,
      /^switchyard: one\.policy\.json:1:19 error E_POLICY_UNKNOWN_KEY placement override 'Validate' names no placement of .* — did you mean 'validate'\?/,
    );
  });

  it('a policy whose keys all name something is used, a prototype name included', async () => {
    await writeFile(join(dir, 'proto.jsonld'), await renamedCv({ salvage: 'constructor' }));
    await writeFile(
      join(dir, 'proto.policy.json'),
      '{ "placements": { "constructor": { "deadlineMs": 1000 }, "compose": {} } }\n',
    );
    const result = await runCli(['inspect', 'proto.jsonld', '--policy', 'proto.policy.json'], dir);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    await writeFile(join(dir, 'proto2.policy.json'), '{ "placements": { "toString": {} } }\n');
    const wrong = await runCli(['inspect', 'proto.jsonld', '--policy', 'proto2.policy.json'], dir);
    expectOneLine(
      wrong,
      EXIT_PROBLEM,
      /E_POLICY_UNKNOWN_KEY placement override 'toString' names no placement/,
    );
  });
});

describe('policy overrides of placements named after prototype members', () => {
  it('a __proto__ override times the __proto__ placement; toString without one gets the defaults', async () => {
    await writeFile(
      join(dir, 'proto-timing.policy.json'),
      '{ "defaults": { "deadlineMs": 7 }, "placements": { "__proto__": { "deadlineMs": 1234 } } }\n',
    );
    const { policy, input } = await readPolicyFile(join(dir, 'proto-timing.policy.json'));
    expect(Object.keys(input.placements ?? {})).toEqual(['__proto__']);
    const dagId = 'urn:switchyard:dag:compose-validate';
    expect(timingFor(policy, dagId, '__proto__').deadlineMs).toBe(1234);
    expect(timingFor(policy, dagId, 'toString').deadlineMs).toBe(7);
    expect(timingFor(policy, dagId, 'constructor', 'valueOf').deadlineMs).toBe(7);
    expect(Object.getPrototypeOf(policy.placements)).toBe(null);
  });
});

describe('run summaries of documents whose names are prototype keys', () => {
  it('counts items per terminal named __proto__, toString or constructor', async () => {
    const text = await renamedCv({
      done: 'toString',
      salvaged: '__proto__',
      failed: 'constructor',
      salvage: 'valueOf',
    });
    await writeFile(join(dir, 'names.jsonld'), text);
    const input = JSON.stringify([{ topic: 'a' }, { topic: 'b' }, { topic: 'broken' }]);
    const result = await runCli(
      ['run', 'names.jsonld', '--nodes', 'weird.ts', '--no-store', '--input', input],
      dir,
    );
    const lines = result.out.split('\n');
    expect(lines).toContain('  __proto__ (completed): 2 items');
    expect(lines).toContain('  constructor (failed): 1 item');
    expect(result.out).not.toMatch(/NaN|\[object|function/u);
    const json = await runCli(
      ['run', 'names.jsonld', '--nodes', 'weird.ts', '--no-store', '--input', input, '--json'],
      dir,
    );
    const printed = JSON.parse(json.out) as { items: { terminal: string }[] };
    expect(printed.items.map((i) => i.terminal).sort()).toEqual(['__proto__', '__proto__', 'constructor']);
  });
});
