/**
 * The wording of refusals that both programs (`switchyard` and `archivist`) give, written once so that the
 * same mistake reads the same whichever command or program meets it: a file that is not there, a file or
 * flag value that is not JSON, a flag that wants a whole number.
 */
import { parseJson } from '../document/parse-json.ts';
import { type ErrorCode, SwitchyardError } from '../errors.ts';

/**
 * `E_FILE_NOT_FOUND` for a file a command was told to read: `no such file: <path> — check the path`, the
 * line a missing document gets, with `hint` saying which path to check.
 * @example
 * fileNotFound('in.json', "after '@' in --input").message // "no such file: in.json — check the path after '@' in --input"
 */
export function fileNotFound(shown: string, hint?: string): SwitchyardError {
  return new SwitchyardError(
    'E_FILE_NOT_FOUND',
    `no such file: ${shown} — check the path${hint === undefined ? '' : ` ${hint}`}`,
  );
}

/** True for the error codes of a path that names nothing. */
export function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * The error for `text` that should be JSON and is not: `<where> is not JSON at <line>:<column>: <what is
 * wrong>; <fix>`, the position and the hint from the strict parser that documents use.
 * @example
 * notJson('E_INPUT', '--input', '{oops', 'give an object or an array of objects').message
 * // "--input is not JSON at 1:2: this is not a JSON token — …; give an object or an array of objects"
 */
export function notJson(code: ErrorCode, where: string, text: string, fix: string): SwitchyardError {
  // Text nested too deep for the describing parser is said to be not JSON, without a position.
  const first = parseJson(text).problems.find((p) => p.code === 'E_JSON_SYNTAX');
  const at = first?.line === undefined ? '' : ` at ${first.line}:${first.column ?? 1}`;
  const what = first === undefined ? '' : `: ${first.message.replace(/^invalid JSON at \d+:\d+: /u, '')}`;
  return new SwitchyardError(code, `${where} is not JSON${at}${what}; ${fix}`);
}

/**
 * A flag's value as a whole number, or `E_USAGE`: `<flag> must be a whole number, not '<text>'`.
 * @example
 * wholeNumber('--seed', '7') // 7
 */
export function wholeNumber(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(value)) {
    throw new SwitchyardError('E_USAGE', `${flag} must be a whole number, not '${text}'`);
  }
  return value;
}

/**
 * `E_FILE_NOT_FOUND` for paths (folders, most likely) that hold no `.jsonld` document: what `validate` and
 * `render` say alike.
 */
export function noDocuments(shown: readonly string[]): SwitchyardError {
  return new SwitchyardError(
    'E_FILE_NOT_FOUND',
    `no .jsonld documents found in ${shown.join(', ')} — name DAG documents or folders holding them`,
  );
}
