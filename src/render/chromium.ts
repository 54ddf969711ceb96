/**
 * Finding and launching the Chromium that renders diagrams: an explicit path, then environment variables,
 * then the usual system locations. Puppeteer's own browser download is never used.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer';
import { SwitchyardError } from '../errors.ts';
import { importOptional, RENDERING_PACKAGES } from '../optional-import.ts';

/** Chromium flags: no sandbox (containers, CI), no background traffic, no GPU, no /dev/shm limits. */
export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
  '--disable-dev-shm-usage',
]);

/** Where Chromium is looked for when no path is given, in order. */
const CHROMIUM_PATHS: readonly string[] = Object.freeze([
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
]);

/** Inputs of {@link findChromium}; `env` and `exists` are injected so the search is testable. */
export interface FindChromiumOptions {
  /** A path given on the command line (`--chromium`); wins over everything else. */
  readonly path?: string | undefined;
  /** Default `process.env`: reads `SWITCHYARD_CHROMIUM`, then `PUPPETEER_EXECUTABLE_PATH`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Default: the file exists. */
  readonly exists?: (path: string) => boolean;
  /** Default {@link CHROMIUM_PATHS}. */
  readonly candidates?: readonly string[];
}

/**
 * Returns the Chromium executable to use, or throws `E_CHROMIUM_NOT_FOUND` saying how to install one.
 * @example
 * const executablePath = findChromium({ path: options.chromium });
 */
export function findChromium(options: FindChromiumOptions = {}): string {
  const env = options.env ?? process.env;
  const exists = options.exists ?? existsSync;
  const chosen = [
    ['--chromium', options.path],
    ['SWITCHYARD_CHROMIUM', env.SWITCHYARD_CHROMIUM],
    ['PUPPETEER_EXECUTABLE_PATH', env.PUPPETEER_EXECUTABLE_PATH],
  ] as const;
  for (const [source, path] of chosen) {
    if (path === undefined || path === '') continue;
    if (exists(path)) return path;
    throw new SwitchyardError(
      'E_CHROMIUM_NOT_FOUND',
      `Chromium not found at ${path} (from ${source}): install it (Debian: apt-get install -y chromium) or point ${source} at its path`,
    );
  }
  const found = (options.candidates ?? CHROMIUM_PATHS).find((path) => exists(path));
  if (found === undefined) {
    throw new SwitchyardError(
      'E_CHROMIUM_NOT_FOUND',
      'Chromium not found: install it (Debian: apt-get install -y chromium) or set SWITCHYARD_CHROMIUM to its path',
    );
  }
  return found;
}

/** A launched headless Chromium with its own temporary profile. */
export interface LaunchedBrowser {
  readonly browser: Browser;
  /** Closes the browser and removes its profile directory. */
  close(): Promise<void>;
}

/** Launches headless Chromium at `executablePath` with {@link CHROMIUM_ARGS} and a fresh temp profile. */
export async function launchChromium(executablePath: string): Promise<LaunchedBrowser> {
  const { default: puppeteer } = await importOptional(RENDERING_PACKAGES, () => import('puppeteer'));
  const userDataDir = await mkdtemp(join(tmpdir(), 'switchyard-chromium-'));
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS],
      userDataDir,
      // Laying out a 1,000-placement document takes minutes, beyond puppeteer's default 180 s.
      protocolTimeout: 900_000,
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw new SwitchyardError(
      'E_RENDER',
      `cannot start Chromium at ${executablePath}: ${(error as Error).message.split('\n')[0]}; check that it runs (${executablePath} --version)`,
      { cause: error },
    );
  }
  return {
    browser,
    async close() {
      try {
        await browser.close();
      } finally {
        await rm(userDataDir, { recursive: true, force: true });
      }
    },
  };
}
