/**
 * What the tests of the packed package share: packing it, running programs in an installing project with an
 * environment of their own, and reading the README's walkthrough to follow it as written.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** The repository. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One file of `npm pack --json`. */
export interface PackedFile {
  readonly path: string;
  readonly size: number;
}

/** What `npm pack --json` reports of the tarball. */
export interface Packed {
  readonly filename: string;
  readonly size: number;
  readonly unpackedSize: number;
  readonly files: readonly PackedFile[];
}

/** How a program ended. */
export interface Outcome {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

// The tests run under `npm test`, whose variables would point the inner npm at this repository
// (npm_config_local_prefix) and describe this package (npm_package_*); NODE_OPTIONS could load tsx.
const INHERITED =
  /^(?:npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_command$|INIT_CWD$|NODE_OPTIONS$|NODE_PATH$)/u;

function environment(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!INHERITED.test(key)) env[key] = value;
  return { ...env, SWITCHYARD_STORE: '', ...extra };
}

/** Runs a program to its end; a non-zero exit is a result, not a failure. */
export function exec(
  file: string,
  args: readonly string[],
  cwd: string,
  extra: Readonly<Record<string, string>> = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd, env: environment(extra), maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (error, out, err) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, out, err });
      },
    );
  });
}

/** `npm pack` of the repository (which builds it) into `folder`; returns what it packed and the tarball. */
export async function pack(folder: string): Promise<{ packed: Packed; tarball: string }> {
  const result = await exec('npm', ['pack', '--json', '--pack-destination', folder], ROOT);
  expect(result.code, result.err).toBe(0);
  const packed = (JSON.parse(result.out) as Packed[])[0] as Packed;
  return { packed, tarball: join(folder, packed.filename) };
}

/** A fenced block of the README: its language (`sh`, `ts`, or empty) and its text. */
export interface Block {
  readonly lang: string;
  readonly text: string;
}

/** The fenced blocks of the README section headed `title` (up to the next heading), in order. */
export async function readmeBlocks(title: string): Promise<Block[]> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const start = readme.search(new RegExp(`^#+ ${title}$`, 'mu'));
  expect(start, `README section "${title}"`).toBeGreaterThanOrEqual(0);
  const body = readme.slice(readme.indexOf('\n', start) + 1);
  const next = body.search(/^#+ /mu);
  const section = next === -1 ? body : body.slice(0, next);
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gmu)].map((m) => ({
    lang: m[1] as string,
    text: m[2] as string,
  }));
}

/** The commands of a shell block, one a line. */
export function commandsOf(block: Block): string[] {
  return block.text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The lines a program wrote to stderr. */
export const lines = (text: string): string[] => text.trimEnd().split('\n');
