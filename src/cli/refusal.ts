/**
 * The one line a program prints when it refuses: `<program>: <what is wrong — how to fix it> (<CODE>)`, so
 * every refusal carries a stable code that scripts can match, whichever command gave it.
 */

/**
 * The refusal line for an error `message` with `code`: the code is appended unless the message already
 * names it; a message of several lines (a list of problems, each with its own code) is kept as it is.
 * @example
 * refusalLine('switchyard', 'no such file: x.jsonld — check the path', 'E_FILE_NOT_FOUND')
 * // 'switchyard: no such file: x.jsonld — check the path (E_FILE_NOT_FOUND)'
 */
export function refusalLine(program: string, message: string, code: string): string {
  const coded = message.includes('\n') || message.includes(code) ? message : `${message} (${code})`;
  return `${program}: ${coded}`;
}

/**
 * Commander's error text (`error: unknown option '--x'`) as one refusal line with the `E_USAGE` code and a
 * pointer to the help.
 */
export function usageLine(program: string, text: string): string {
  const what = text
    .trim()
    .replace(/^error:\s*/u, '')
    .replace(/\s+/gu, ' ');
  return `${program}: ${what} — run ${program} --help for usage (E_USAGE)\n`;
}
