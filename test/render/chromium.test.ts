import { describe, expect, it } from 'vitest';
import { isSwitchyardError } from '../../src/errors.ts';
import { findChromium } from '../../src/render/chromium.ts';

const only =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isSwitchyardError(error)) return `${error.code} ${error.message}`;
    throw error;
  }
  throw new Error('findChromium found a browser');
}

describe('findChromium', () => {
  it('prefers the explicit path, then SWITCHYARD_CHROMIUM, then PUPPETEER_EXECUTABLE_PATH, then system paths', () => {
    const exists = only('/a', '/b', '/c', '/usr/bin/chromium-browser');
    const env = { SWITCHYARD_CHROMIUM: '/b', PUPPETEER_EXECUTABLE_PATH: '/c' };
    expect(findChromium({ path: '/a', env, exists })).toBe('/a');
    expect(findChromium({ env, exists })).toBe('/b');
    expect(findChromium({ env: { PUPPETEER_EXECUTABLE_PATH: '/c' }, exists })).toBe('/c');
    expect(findChromium({ env: {}, exists })).toBe('/usr/bin/chromium-browser');
  });

  it('says how to install Chromium when none is found', () => {
    expect(failure(() => findChromium({ env: {}, exists: only() }))).toBe(
      'E_CHROMIUM_NOT_FOUND Chromium not found: install it (Debian: apt-get install -y chromium) or set SWITCHYARD_CHROMIUM to its path',
    );
  });

  it('names the setting that points at a missing file', () => {
    expect(
      failure(() =>
        findChromium({ env: { SWITCHYARD_CHROMIUM: '/nope' }, exists: only('/usr/bin/chromium') }),
      ),
    ).toMatch(/^E_CHROMIUM_NOT_FOUND Chromium not found at \/nope \(from SWITCHYARD_CHROMIUM\)/);
  });
});
