import { main } from '../../src/cli/main.ts';

/** Runs the `switchyard` CLI in-process with captured output. */
export async function runCli(
  args: readonly string[],
  cwd: string = process.cwd(),
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['node', 'switchyard', ...args], {
    out: (text) => {
      out += text.endsWith('\n') ? text : `${text}\n`;
    },
    err: (text) => {
      err += text.endsWith('\n') ? text : `${text}\n`;
    },
    cwd,
    isTTY: false,
  });
  return { code, out, err };
}
