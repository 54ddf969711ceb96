/**
 * One name for one flag across both programs, `--json` where a machine reads the output, and one wording for
 * one mistake: read from the help of every command of `switchyard` and `archivist`, and from their refusals.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_HELP, JSON_HELP, NO_STORE_HELP, NODES_HELP, POLICY_HELP } from '../../src/cli/option-help.ts';
import { STORE_FILE_HELP } from '../../src/cli/store-option.ts';
import { runMain } from '../archivist/run-main.ts';
import { runCli } from './run-cli.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CV = join(ROOT, 'dags/compose-validate.jsonld');
const NODES = join(ROOT, 'test/fixtures/nodes/compose-validate.ts');

const SWITCHYARD_COMMANDS = [
  ['validate'],
  ['inspect'],
  ['hash'],
  ['export'],
  ['run'],
  ['resume'],
  ['render'],
  ['runs'],
  ['runs', 'show'],
  ['runs', 'events'],
  ['runs', 'prune'],
  ['runs', 'abort'],
  ['ui'],
  ['worker'],
];
const ARCHIVIST_COMMANDS = [['ask'], ['chat']];

/** One option as a command's help lists it: its flags (`-o, --output <file>`) and its description. */
interface HelpOption {
  readonly command: string;
  readonly flags: string;
  readonly long: string;
  readonly description: string;
}

/** The options of a help text, with wrapped descriptions joined. */
function optionsOf(command: string, help: string): HelpOption[] {
  const section = help.split(/^Options:$/m)[1]?.split(/^Commands:$/m)[0] ?? '';
  const options: { flags: string; description: string }[] = [];
  for (const line of section.split('\n')) {
    const start = /^ {2}(-\S.*?)(?: {2,}(.*))?$/.exec(line);
    if (start) options.push({ flags: start[1] ?? '', description: start[2] ?? '' });
    else if (line.trim() !== '' && options.length > 0) {
      const last = options[options.length - 1] as { description: string };
      last.description = `${last.description} ${line.trim()}`.trim();
    }
  }
  return options.map(({ flags, description }) => ({
    command,
    flags,
    long: /--[\w-]+/.exec(flags)?.[0] ?? flags,
    description: description.replace(/\s+/g, ' '),
  }));
}

let every: HelpOption[];
let dir: string;
beforeAll(async () => {
  every = [];
  for (const words of SWITCHYARD_COMMANDS) {
    const help = await runCli([...words, '--help']);
    every.push(...optionsOf(`switchyard ${words.join(' ')}`, help.out));
  }
  for (const words of ARCHIVIST_COMMANDS) {
    const help = await runMain([...words, '--help']);
    every.push(...optionsOf(`archivist ${words.join(' ')}`, help.out));
  }
  dir = await mkdtemp(join(tmpdir(), 'switchyard-flags-'));
  await copyFile(CV, join(dir, 'cv.jsonld'));
  await writeFile(join(dir, 'bad.json'), '{\n  "topic": "x",\n}\n');
  await mkdir(join(dir, 'empty'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('one name for one flag, across every command of both programs', () => {
  it('reads the options of every command', () => {
    expect(every.length).toBeGreaterThan(60);
    expect(new Set(every.map((o) => o.command)).size).toBe(
      SWITCHYARD_COMMANDS.length + ARCHIVIST_COMMANDS.length,
    );
  });

  it('a short flag always stands for the same long one, and a long one always takes the same value', () => {
    const byShort = new Map<string, Set<string>>();
    const byLong = new Map<string, Set<string>>();
    for (const option of every) {
      const short = /^-\w\b/.exec(option.flags)?.[0];
      if (short !== undefined) byShort.set(short, (byShort.get(short) ?? new Set()).add(option.long));
      const value = /[<[][^>\]]*[>\]]/.exec(option.flags)?.[0] ?? '';
      byLong.set(option.long, (byLong.get(option.long) ?? new Set()).add(value));
    }
    for (const [short, longs] of byShort)
      expect([short, [...longs]]).toEqual([short, [...longs].slice(0, 1)]);
    for (const [long, values] of byLong) {
      // archivist's --trace prints the path its own run took; render's --trace <file> reads the path of
      // another run from a file: the same idea, the path a run took, with or without a file to read it from.
      if (long === '--trace') continue;
      expect([long, [...values]]).toEqual([long, [...values].slice(0, 1)]);
    }
  });

  it('the file a command writes is -o/--output wherever it has one; --out is no longer listed', () => {
    const writers = every.filter((o) => o.flags.startsWith('-o'));
    expect(writers.map((o) => o.command).sort()).toEqual(['switchyard export', 'switchyard render']);
    for (const option of writers) expect(option.flags).toBe('-o, --output <file>');
    expect(every.filter((o) => o.long === '--out')).toEqual([]);
  });

  it('a flag shared by several commands says the same thing in each', () => {
    const shared: [string, string][] = [
      ['--nodes', NODES_HELP],
      // Each program says its own default after it: the Archivist keeps its history in the XDG data folder.
      ['--store', `${STORE_FILE_HELP} (default: `],
      ['--no-store', NO_STORE_HELP],
      ['--events', EVENTS_HELP],
      ['--policy', POLICY_HELP],
    ];
    for (const [long, text] of shared) {
      const found = every.filter((o) => o.long === long);
      expect(found.length, long).toBeGreaterThan(1);
      for (const option of found) expect(option.description, `${option.command} ${long}`).toContain(text);
    }
    for (const command of ['switchyard run', 'switchyard resume', 'archivist ask']) {
      expect(every.find((o) => o.command === command && o.long === '--json')?.description).toBe(JSON_HELP);
    }
  });

  it('--json on hash and export, where a machine reads the output', async () => {
    expect(every.filter((o) => o.long === '--json').map((o) => o.command)).toEqual(
      expect.arrayContaining(['switchyard hash', 'switchyard export']),
    );
    const hash = JSON.parse((await runCli(['hash', 'cv.jsonld', '--json'], dir)).out);
    expect(hash).toEqual({
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      id: 'urn:switchyard:dag:compose-validate',
      file: 'cv.jsonld',
    });
    const written = JSON.parse(
      (await runCli(['export', 'cv.jsonld', '-o', 'out.nq', '--format', 'nquads', '--json'], dir)).out,
    );
    expect(written).toEqual({ id: 'urn:switchyard:dag:compose-validate', format: 'nquads', wrote: 'out.nq' });
  });

  it('the former --out of export still writes, hidden', async () => {
    const result = await runCli(['export', 'cv.jsonld', '--out', 'old.jsonld'], dir);
    expect([result.code, result.out]).toEqual([0, 'wrote old.jsonld\n']);
    const both = await runCli(['export', 'cv.jsonld', '--out', 'a.jsonld', '-o', 'b.jsonld'], dir);
    expect(both.code).toBe(2);
    expect(both.err).toBe('switchyard: give the output once: -o b.jsonld or --out a.jsonld (E_USAGE)\n');
  });
});

/** The refusal line without its program's name, for comparing the two programs. */
function refusal(err: string, program: string): string {
  expect(err.trimEnd().split('\n'), err).toHaveLength(1);
  return err.trimEnd().replace(new RegExp(`^${program}: `), '');
}

describe('the same mistake reads the same in every command of both programs', () => {
  it('a flag that wants a whole number', async () => {
    const lines = [
      refusal((await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--seed', 'abc'], dir)).err, 'switchyard'),
      refusal((await runCli(['resume', 'x', '--nodes', NODES, '--seed', 'abc'], dir)).err, 'switchyard'),
      refusal(
        (await runMain(['ask', '--seed', 'abc', 'books by George Orwell'], { cwd: dir })).err,
        'archivist',
      ),
    ];
    expect(new Set(lines)).toEqual(new Set(["--seed must be a whole number, not 'abc' (E_USAGE)"]));
  });

  it('a file that is not there', async () => {
    const lines = [
      (await runCli(['hash', 'nope.json'], dir)).err,
      (await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--no-store', '--input', '@nope.json'], dir)).err,
      (await runCli(['inspect', 'cv.jsonld', '--policy', 'nope.json'], dir)).err,
      (await runCli(['render', 'cv.jsonld', '-o', 'x.mmd', '--trace', 'nope.json'], dir)).err,
      (await runMain(['ask', '--catalog', join(dir, 'nope.json'), 'books by George Orwell'], { cwd: dir }))
        .err,
    ];
    for (const line of lines) {
      expect(line).toMatch(
        /^(switchyard|archivist): no such file: (\/.*\/)?nope\.json — check the path( [^\n]*)? \(E_FILE_NOT_FOUND\)\n$/,
      );
    }
  });

  it('JSON that is not JSON, in --input or a file, names where and what', async () => {
    const lines = [
      (await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--no-store', '--input', '{"topic": "x",}'], dir))
        .err,
      (await runCli(['run', 'cv.jsonld', '--nodes', NODES, '--no-store', '--input', '@bad.json'], dir)).err,
      (await runMain(['ask', '--catalog', join(dir, 'bad.json'), 'books by George Orwell'], { cwd: dir }))
        .err,
    ];
    expect(lines[0]).toMatch(
      /^switchyard: --input is not JSON at 1:15: a property name is expected .*; give an object or an array of objects \(E_INPUT\)\n$/,
    );
    expect(lines[1]).toMatch(
      /^switchyard: bad\.json is not JSON at 3:1: a property name is expected .*; give an object or an array of objects \(E_INPUT\)\n$/,
    );
    expect(lines[2]).toMatch(
      /^archivist: the catalog .*bad\.json is not JSON at 3:1: a property name is expected .*; fix it or pass another with --catalog \(E_INPUT\)\n$/,
    );
  });

  it('an unknown option and a missing argument', async () => {
    const unknown = [
      refusal((await runCli(['hash', 'cv.jsonld', '--frobnicate'], dir)).err, 'switchyard'),
      refusal((await runMain(['ask', '--frobnicate', 'x'], { cwd: dir })).err, 'archivist'),
    ];
    expect(unknown[0]).toBe("unknown option '--frobnicate' — run switchyard --help for usage (E_USAGE)");
    expect(unknown[1]).toBe("unknown option '--frobnicate' — run archivist --help for usage (E_USAGE)");
    const missing = [
      refusal((await runCli(['run', 'cv.jsonld', '--policy'], dir)).err, 'switchyard'),
      refusal((await runMain(['ask', '--catalog'], { cwd: dir })).err, 'archivist'),
    ];
    expect(missing[0]).toBe(
      "option '--policy <file>' argument missing — run switchyard --help for usage (E_USAGE)",
    );
    expect(missing[1]).toBe(
      "option '--catalog <file>' argument missing — run archivist --help for usage (E_USAGE)",
    );
  });

  it('a folder without documents, in validate and render', async () => {
    const lines = [
      await runCli(['validate', 'empty'], dir),
      await runCli(['render', 'empty', '--out-dir', 'out', '--format', 'mmd'], dir),
    ];
    for (const result of lines) {
      expect(result.code).toBe(1);
      expect(result.err).toBe(
        'switchyard: no .jsonld documents found in empty — name DAG documents or folders holding them (E_FILE_NOT_FOUND)\n',
      );
    }
  });
});
