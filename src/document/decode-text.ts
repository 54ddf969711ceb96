/**
 * Decoding the bytes of a document, policy or input file as strict UTF-8. A lenient decoder replaces every
 * ill-formed sequence by U+FFFD, so two different files would read (and hash) alike; here the first such
 * sequence is refused with its line and column, and a file in UTF-16 or UTF-32 is refused naming its
 * encoding. A UTF-8 byte order mark is accepted and dropped.
 */
import { type Problem, problem, SwitchyardError } from '../errors.ts';

/** The text of a file, or the one problem that says why its bytes are not UTF-8 text. */
export type DecodeOutcome = { readonly text: string } | { readonly problem: Problem };

/** Where an ill-formed byte sequence starts, and what is wrong with it. */
export interface BadSequence {
  /** Offset of its first byte. */
  readonly offset: number;
  readonly line: number;
  /** 1-based, in UTF-16 code units of the text before it on its line, as every other column. */
  readonly column: number;
  readonly reason: string;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/**
 * The UTF-16 or UTF-32 encoding of `bytes` when they are in one: by byte order mark, else by the pattern of
 * zero bytes that a JSON text (which starts with an ASCII character) has in them (RFC 4627, section 3).
 */
export function wideEncoding(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0xff, 0xfe, 0, 0])) return 'UTF-32 (little-endian)';
  if (startsWith(bytes, [0, 0, 0xfe, 0xff])) return 'UTF-32 (big-endian)';
  if (startsWith(bytes, [0xff, 0xfe])) return 'UTF-16 (little-endian)';
  if (startsWith(bytes, [0xfe, 0xff])) return 'UTF-16 (big-endian)';
  if (bytes.length < 2) return undefined;
  const [a, b, c, d] = bytes;
  if (bytes.length >= 4 && a === 0 && b === 0 && c === 0 && d !== 0) return 'UTF-32 (big-endian)';
  if (bytes.length >= 4 && a !== 0 && b === 0 && c === 0 && d === 0) return 'UTF-32 (little-endian)';
  if (a === 0 && b !== 0) return 'UTF-16 (big-endian)';
  if (a !== 0 && b === 0) return 'UTF-16 (little-endian)';
  return undefined;
}

/** How many bytes a sequence led by `lead` has, or 0 when `lead` cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function hex(byte: number | undefined): string {
  return `0x${(byte ?? 0).toString(16).padStart(2, '0')}`;
}

/** Why the sequence at `start` is ill-formed (Unicode 15, table 3-7). */
function reasonAt(bytes: Uint8Array, start: number): string {
  const lead = bytes[start] ?? 0;
  const second = bytes[start + 1];
  if (lead >= 0x80 && lead <= 0xbf) return `byte ${hex(lead)} continues a character that was never started`;
  if (lead === 0xc0 || lead === 0xc1 || (lead === 0xe0 && second !== undefined && second < 0xa0)) {
    return `an overlong encoding (${hex(lead)} ${hex(second)}) writes a character in more bytes than it needs`;
  }
  if (lead === 0xf0 && second !== undefined && second < 0x90) {
    return `an overlong encoding (${hex(lead)} ${hex(second)}) writes a character in more bytes than it needs`;
  }
  if (lead === 0xed && second !== undefined && second >= 0xa0 && second <= 0xbf) {
    return `a UTF-16 surrogate (${hex(lead)} ${hex(second)}) is not a character in UTF-8`;
  }
  if ((lead === 0xf4 && second !== undefined && second >= 0x90) || (lead >= 0xf5 && lead <= 0xf7)) {
    return `a code point above U+10FFFF (${hex(lead)} ${hex(second)}) is not a character`;
  }
  if (sequenceLength(lead) === 0) return `byte ${hex(lead)} never occurs in UTF-8`;
  const length = sequenceLength(lead);
  const have = bytes.subarray(start, start + length);
  return `the ${length}-byte sequence starting with ${hex(lead)} is cut short after ${countContinuations(have) + 1} byte(s)`;
}

function countContinuations(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 1; i < bytes.length && (bytes[i] ?? 0) >= 0x80 && (bytes[i] ?? 0) <= 0xbf; i++) n++;
  return n;
}

/**
 * The first ill-formed sequence in `bytes`, or undefined when they are UTF-8. A lenient decoder writes one
 * U+FFFD where each ill-formed sequence starts; the first U+FFFD that the file does not itself write (as
 * EF BF BD) marks it, and the valid text before it gives its line and column. One linear pass.
 */
export function firstBadSequence(bytes: Uint8Array): BadSequence | undefined {
  // The byte order mark is kept as U+FEFF, so that the text and the bytes stay in step.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  let index = 0;
  let offset = 0;
  for (;;) {
    const found = text.indexOf('\uFFFD', index);
    if (found < 0) return undefined;
    offset += Buffer.byteLength(text.slice(index, found), 'utf8');
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) {
      const lineStart = text.lastIndexOf('\n', found - 1) + 1;
      let line = 1;
      for (let at = text.indexOf('\n'); at >= 0 && at < found; at = text.indexOf('\n', at + 1)) line++;
      const bom = lineStart === 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
      return { offset, line, column: found - lineStart - bom + 1, reason: reasonAt(bytes, offset) };
    }
    offset += 3;
    index = found + 1;
  }
}

/**
 * Decodes the bytes of a file as strict UTF-8; `what` names the file in messages ("policy file x.json").
 * Bytes that are not UTF-8 are an `E_ENCODING` problem with the line and column of the first bad byte.
 *
 * @example
 * ```ts
 * const decoded = decodeUtf8(await readFile(path), path);
 * if ('problem' in decoded) console.error(decoded.problem.message);
 * ```
 */
export function decodeUtf8(bytes: Uint8Array, file?: string, what = file ?? 'the text'): DecodeOutcome {
  const where = file === undefined ? {} : { file };
  const wide = wideEncoding(bytes);
  if (wide !== undefined) {
    return {
      problem: problem('E_ENCODING', `${what} is encoded in ${wide}, not UTF-8 — save it as UTF-8`, {
        ...where,
        line: 1,
        column: 1,
      }),
    };
  }
  try {
    // The decoder drops a leading UTF-8 byte order mark.
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const bad = firstBadSequence(bytes) ?? { offset: 0, line: 1, column: 1, reason: 'it is not UTF-8' };
    return {
      problem: problem(
        'E_ENCODING',
        `${what} is not valid UTF-8 at ${bad.line}:${bad.column} (byte ${bad.offset}): ${bad.reason} — save it as UTF-8, or fix the text there`,
        { ...where, line: bad.line, column: bad.column },
      ),
    };
  }
}

/**
 * The text of `bytes` decoded as strict UTF-8, or an `E_ENCODING` error (one line, with the line and column
 * of the first bad byte) for a reader that has no problem list to add it to.
 */
export function decodeUtf8OrThrow(bytes: Uint8Array, file?: string, what?: string): string {
  const decoded = decodeUtf8(bytes, file, what);
  if ('problem' in decoded) {
    throw new SwitchyardError('E_ENCODING', decoded.problem.message, { problems: [decoded.problem] });
  }
  return decoded.text;
}
