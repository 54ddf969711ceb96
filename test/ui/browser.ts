/** Debian's Chromium driven by playwright-core: no browser download, no network. */
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../src/render/chromium.ts';

/** The Chromium the tests and benchmarks drive. */
export const CHROMIUM = process.env.SWITCHYARD_CHROMIUM ?? '/usr/bin/chromium';

/** Launches one headless Chromium for a test file or a benchmark. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // The flags `switchyard render` starts Chromium with.
    args: [...CHROMIUM_ARGS],
  });
}
