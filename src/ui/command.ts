/**
 * Carries out `switchyard ui`: checks the command line, starts the viewer, prints its URL, optionally opens
 * a browser, and serves until Ctrl-C (or `until` resolves, for tests).
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { UiCommandOptions } from '../cli/commands/ui.ts';
import type { CliIO } from '../cli/io.ts';
import { displayPath } from '../cli/output.ts';
import { storePathOf } from '../cli/store-option.ts';
import { SwitchyardError } from '../errors.ts';
import { defaultViewerOptions, startViewer, type Viewer } from './server.ts';

/** `--port` as a number, or `E_USAGE`. */
export function parsePort(text: string | undefined): number {
  if (text === undefined) return defaultViewerOptions.port;
  const port = Number(text);
  if (!/^\d+$/u.test(text) || port > 65535) {
    throw new SwitchyardError(
      'E_USAGE',
      `--port ${text} is not a port number: use 1 to 65535, or 0 for any free port`,
    );
  }
  return port;
}

/** The documents folder: `--dags`, else `dags/` when the current folder has one, else the current folder. */
function dagsFolder(option: string | undefined, cwd: string): string {
  if (option !== undefined) return resolve(cwd, option);
  const beside = resolve(cwd, 'dags');
  return existsSync(beside) ? beside : cwd;
}

/** Opens `url` in the system's browser; says so in one line when it cannot. */
function openBrowser(url: string, io: CliIO): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  const child = spawn(command, args as string[], { detached: true, stdio: 'ignore' });
  child.on('error', () =>
    io.err(`switchyard ui: could not open a browser (${command}); open ${url} yourself`),
  );
  child.unref();
}

/** Resolves on the first Ctrl-C or SIGTERM. */
function untilSignal(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * Serves the viewer for `switchyard ui` until `until` resolves (default: Ctrl-C or SIGTERM).
 * @example
 * await uiAction({ dags: 'dags', port: '0' }, processIO());
 */
export async function uiAction(
  options: UiCommandOptions,
  io: CliIO,
  until: (viewer: Viewer) => Promise<void> = untilSignal,
): Promise<void> {
  const port = parsePort(options.port);
  if (options.host !== undefined && options.host.trim() === '') {
    throw new SwitchyardError('E_USAGE', '--host is empty: name an address such as 127.0.0.1 or 0.0.0.0');
  }
  const dags = dagsFolder(options.dags, io.cwd);
  if (!statSync(dags, { throwIfNoEntry: false })?.isDirectory()) {
    throw new SwitchyardError(
      'E_USAGE',
      `--dags ${options.dags} is not a folder: name the folder of your .jsonld documents`,
    );
  }
  const store = storePathOf(options, process.env, io.cwd) as string;
  const viewer = await startViewer({
    dags,
    store,
    port,
    cwd: io.cwd,
    onBug: (error) =>
      io.err(
        `switchyard ui: a request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
    ...(options.host === undefined ? {} : { host: options.host }),
  });
  try {
    io.out(
      `switchyard ui: ${viewer.url}/ shows ${displayPath(dags, io.cwd) || '.'} and ${displayPath(store, io.cwd)} (read-only; Ctrl-C to stop)`,
    );
    if (options.host !== undefined && !['127.0.0.1', 'localhost', '::1'].includes(options.host)) {
      io.err(
        `switchyard ui: listening on ${options.host}: anyone who can reach it can read these documents and runs`,
      );
    }
    if (viewer.linkedTo !== undefined && viewer.linkedTo !== viewer.url) {
      io.err(
        `switchyard ui: the viewer at ${viewer.linkedTo}/ served this store first: \`switchyard run\` links its runs there`,
      );
    }
    if (options.open === true) openBrowser(`${viewer.url}/`, io);
    await until(viewer);
  } finally {
    await viewer.close();
  }
}
