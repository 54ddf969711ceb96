import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/document/decode-text.ts';
import { hashDag } from '../../src/document/hash.ts';
import { loadDagFile, loadDagText } from '../../src/document/load.ts';
import { isSwitchyardError, type Problem } from '../../src/errors.ts';
import { loadPolicyFile } from '../../src/policy/load.ts';
import { runCli } from '../cli/run-cli.ts';

const CV = 'dags/compose-validate.jsonld';
const POLICY = 'dags/compose-validate.policy.json';
const canonical = readFileSync(CV);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchyard-encoding-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** compose-validate with `bytes` written inside its name, after "Compose", on line 5. */
function withBytesInName(bytes: readonly number[]): Buffer {
  const text = canonical.toString('utf8');
  const at = Buffer.byteLength(text.slice(0, text.indexOf('Compose and validate') + 'Compose'.length));
  return Buffer.concat([canonical.subarray(0, at), Buffer.from(bytes), canonical.subarray(at)]);
}

const NAME_LINE = 5;
const NAME_COLUMN = '  "name": "Compose'.length + 1;

async function written(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

describe('a document whose bytes are not UTF-8', () => {
  it.each([
    ['a stray 0xff', [0xff]],
    ['a byte that only continues a character', [0x80]],
    ['an overlong two-byte slash', [0xc0, 0xaf]],
    ['an overlong three-byte slash', [0xe0, 0x80, 0xaf]],
    ['an overlong four-byte slash', [0xf0, 0x80, 0x80, 0xaf]],
    ['an encoded UTF-16 surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a three-byte sequence cut short', [0xe2, 0x82]],
    ['a four-byte sequence cut short', [0xf0, 0x9f, 0x98]],
  ])('%s is E_ENCODING at the line and column of its first byte', async (_what, bytes) => {
    const path = await written('bad.jsonld', withBytesInName(bytes));
    const { dag, problems } = await loadDagFile(path);
    expect(dag).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      code: 'E_ENCODING',
      file: path,
      line: NAME_LINE,
      column: NAME_COLUMN,
      message: expect.stringContaining(`not valid UTF-8 at ${NAME_LINE}:${NAME_COLUMN}`),
    });
    expect(problems[0]?.message).not.toMatch(/\n/);
  });

  it('two files that differ only in their bad bytes are both refused, never hashed alike', async () => {
    for (const bytes of [[0xff], [0xfe], [0xef, 0xbf, 0xbd]]) {
      const { dag } = await loadDagFile(await written('one.jsonld', withBytesInName(bytes)));
      // U+FFFD written as itself is a character: only that one loads.
      expect(dag === undefined).toBe(bytes.length === 1);
    }
  });

  it('a sequence cut short by the end of the file is refused at its first byte', async () => {
    const text = Buffer.concat([canonical, Buffer.from([0xe2, 0x82])]);
    const { problems } = await loadDagFile(await written('end.jsonld', text));
    const lines = canonical.toString('utf8').split('\n');
    expect(problems).toMatchObject([
      { code: 'E_ENCODING', line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 },
    ]);
  });

  it('columns count the characters before the bad byte, after a U+FFFD and a BOM', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"name": "é\uFFFD😀', 'utf8'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}', 'utf8'),
    ]);
    const decoded = decodeUtf8(bytes, 'x.json');
    expect(decoded).toMatchObject({
      problem: { code: 'E_ENCODING', line: 1, column: '{"name": "é\uFFFD😀'.length + 1 },
    });
  });

  it('a UTF-8 byte order mark is accepted and changes nothing', async () => {
    const path = await written('bom.jsonld', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), canonical]));
    const withBom = await loadDagFile(path);
    const plain = await loadDagFile(CV);
    expect(withBom.problems).toEqual([]);
    expect(await hashDag(withBom.dag as never)).toBe(await hashDag(plain.dag as never));
  });

  it.each([
    [
      'UTF-16 (little-endian)',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(canonical.toString(), 'utf16le')]),
    ],
    ['UTF-16 (little-endian)', Buffer.from(canonical.toString(), 'utf16le')],
    ['UTF-16 (big-endian)', Buffer.from(canonical.toString(), 'utf16le').swap16()],
    [
      'UTF-16 (big-endian)',
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(canonical.toString(), 'utf16le').swap16()]),
    ],
    ['UTF-32 (little-endian)', Buffer.from([0x7b, 0, 0, 0, 0x7d, 0, 0, 0])],
    ['UTF-32 (big-endian)', Buffer.from([0, 0, 0xfe, 0xff, 0, 0, 0, 0x7b])],
  ])('a file in %s is refused with one line naming its encoding', async (encoding, bytes) => {
    const { problems } = await loadDagFile(await written('wide.jsonld', bytes));
    expect(problems).toMatchObject([
      { code: 'E_ENCODING', line: 1, column: 1, message: expect.stringContaining(`encoded in ${encoding}`) },
    ]);
  });

  it('validate prints the refusal as one line and exits 1', async () => {
    const path = await written('cli.jsonld', withBytesInName([0xff]));
    const { code, out, err } = await runCli(['validate', path]);
    expect(code).toBe(1);
    expect(err).toBe('');
    expect(out).toContain(`cli.jsonld:${NAME_LINE}:${NAME_COLUMN} error E_ENCODING `);
    expect(out).not.toMatch(/\n\s+at /);
  });
});

describe('a lone surrogate escape in the JSON text', () => {
  it('is E_ENCODING at the string that holds it, in a value or a name', async () => {
    const text = canonical.toString('utf8').replace('Compose and validate', 'Compose \\ud800 and validate');
    const { problems } = await loadDagText(text, 'lone.jsonld');
    expect(problems).toMatchObject([{ code: 'E_ENCODING', pointer: '/name', line: NAME_LINE, column: 3 }]);
    const inName = canonical.toString('utf8').replace('"description"', '"desc\\udc00"');
    expect((await loadDagText(inName)).problems).toMatchObject([
      { code: 'E_ENCODING', pointer: '/desc\udc00' },
    ]);
  });

  it('a pair of escapes is one character and loads like the character written out', async () => {
    const escaped = canonical.toString('utf8').replace('Compose and validate', 'Compose \\ud83d\\ude00');
    const plain = canonical.toString('utf8').replace('Compose and validate', 'Compose 😀');
    const a = await loadDagText(escaped);
    const b = await loadDagText(plain);
    expect(a.problems).toEqual([]);
    expect(await hashDag(a.dag as never)).toBe(await hashDag(b.dag as never));
  });
});

describe('a policy file whose bytes are not UTF-8', () => {
  async function refusal(bytes: Uint8Array): Promise<{ code: string; message: string; problems: Problem[] }> {
    const path = await written('bad.policy.json', bytes);
    const error = await loadPolicyFile(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isSwitchyardError(error)) throw new Error('the policy loaded');
    return error as never;
  }

  it('is E_ENCODING with the line and column of the bad byte', async () => {
    const text = readFileSync(POLICY);
    const at = text.indexOf('"defaults"');
    const error = await refusal(
      Buffer.concat([text.subarray(0, at), Buffer.from([0xc0, 0x80]), text.subarray(at)]),
    );
    expect(error.code).toBe('E_ENCODING');
    expect(error.problems).toMatchObject([{ code: 'E_ENCODING', line: 3, column: 3 }]);
    expect(error.message).toContain('policy file');
  });

  it('in UTF-16 is refused naming the encoding', async () => {
    const error = await refusal(Buffer.from(readFileSync(POLICY, 'utf8'), 'utf16le'));
    expect(error.message).toContain('UTF-16 (little-endian)');
  });

  it('with a lone surrogate escape is refused at its string', async () => {
    const text = readFileSync(POLICY, 'utf8').replace('"exponential"', '"expo\\udfffnential"');
    const error = await refusal(Buffer.from(text));
    expect(error.problems).toMatchObject([{ code: 'E_ENCODING', pointer: '/defaults/backoff/strategy' }]);
  });
});
