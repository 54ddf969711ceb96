import { describe, expect, it } from 'vitest';
import { isSwitchyardError } from '../../src/errors.ts';
import {
  brokenAddonOf,
  compilerFailure,
  importOptional,
  missingPackageOf,
  type NativePackage,
  SQLITE_DRIVER,
} from '../../src/optional-import.ts';

const ABSENT = { name: 'switchyard-test-absent-package', neededFor: 'testing' } as const;

/** The error a promise rejects with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('the import succeeded'),
    (error: unknown) => error,
  );
}

describe('importOptional', () => {
  it('returns the module when the package is installed', async () => {
    const module = await importOptional(
      { name: 'commander', neededFor: 'testing' },
      () => import('commander'),
    );
    expect(typeof module.Command).toBe('function');
  });

  it('turns a missing package into one line naming what to install', async () => {
    const error = await failure(
      importOptional(ABSENT, () => import('./fixtures/optional/uses-missing.js' as string)),
    );
    expect(isSwitchyardError(error)).toBe(true);
    expect((error as { code: string }).code).toBe('E_MISSING_PACKAGE');
    expect((error as Error).message).toBe(
      'testing needs the package switchyard-test-absent-package, which is not installed: run `npm install switchyard-test-absent-package`',
    );
  });

  it('names a package that comes with the optional one, with the install command given', async () => {
    const error = await failure(
      importOptional(
        {
          name: 'some-renderer',
          neededFor: 'rendering',
          with: [ABSENT.name],
          install: 'npm install some-renderer',
        },
        () => import('./fixtures/optional/uses-missing.js' as string),
      ),
    );
    expect((error as Error).message).toBe(
      'rendering needs the package switchyard-test-absent-package, which is not installed: run `npm install some-renderer`',
    );
  });

  it('leaves any other failure as it is', async () => {
    const other = await failure(
      importOptional(
        { name: 'other', neededFor: 'testing' },
        () => import('./fixtures/optional/uses-missing.js' as string),
      ),
    );
    expect(isSwitchyardError(other)).toBe(false);
    expect(missingPackageOf(other)).toBe(ABSENT.name);
    const thrown = await failure(
      importOptional(ABSENT, () => import('./fixtures/optional/throws.js' as string)),
    );
    expect((thrown as Error).message).toBe('broken on purpose');
  });

  it('answers a missing dependency of the package the same way, naming both', async () => {
    const notFound = (message: string) => Object.assign(new Error(message), { code: 'ERR_MODULE_NOT_FOUND' });
    const inside = notFound(
      "Cannot find package 'left-out' imported from /p/node_modules/some-renderer/dist/index.js",
    );
    const error = await failure(
      importOptional({ name: 'some-renderer', neededFor: 'rendering' }, () => Promise.reject(inside)),
    );
    expect((error as Error).message).toBe(
      'rendering needs the package left-out (a dependency of some-renderer), which is not installed: run `npm install some-renderer`',
    );
    // The same package missing for a file of another package, or of ours, is not the optional package's.
    const elsewhere = notFound("Cannot find package 'left-out' imported from /p/node_modules/other/index.js");
    expect(
      await failure(
        importOptional({ name: 'some-renderer', neededFor: 'x' }, () => Promise.reject(elsewhere)),
      ),
    ).toBe(elsewhere);
  });

  it('reads the package of a scoped or deep specifier, and nothing from a missing relative file', () => {
    const notFound = (message: string) => Object.assign(new Error(message), { code: 'ERR_MODULE_NOT_FOUND' });
    expect(missingPackageOf(notFound("Cannot find package '@scope/name' imported from /x.js"))).toBe(
      '@scope/name',
    );
    expect(missingPackageOf(notFound("Cannot find module 'tsx/esm/api'"))).toBe('tsx');
    expect(missingPackageOf(notFound("Cannot find module '/x/y.js' imported from /x.js"))).toBeUndefined();
    expect(missingPackageOf(new Error("Cannot find package 'x'"))).toBeUndefined();
  });
});

/** An error as loading a native addon gives it. */
function addonError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

// better-sqlite3 without its addon (installed with --ignore-scripts): `bindings` lists every path it tried.
const NEVER_BUILT = addonError(
  'Could not locate the bindings file. Tried:\n → /p/node_modules/better-sqlite3/build/better_sqlite3.node\n → /p/node_modules/better-sqlite3/build/Debug/better_sqlite3.node',
);
// An addon built for another Node.
const OTHER_NODE = addonError(
  "The module '/p/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 108. This version of Node.js requires\nNODE_MODULE_VERSION 115.",
  'ERR_DLOPEN_FAILED',
);

/** A driver whose addon loads only when the first database is opened, as better-sqlite3's does. */
function driverFailingWith(error: Error): () => Promise<new (file: string) => { close(): void }> {
  return async () =>
    class {
      constructor(_file: string) {
        throw error;
      }
      close(): void {}
    };
}

const NATIVE: NativePackage = {
  name: 'some-native',
  neededFor: 'the store',
  addon: true,
  without: 'or pass --no-store',
};

describe('importOptional of a package with a compiled addon', () => {
  const probe = (Driver: new (file: string) => { close(): void }) => new Driver(':memory:').close();

  it('answers an addon that was never built with one line: the rebuild command and the way around it', async () => {
    const error = await failure(importOptional(NATIVE, driverFailingWith(NEVER_BUILT), probe));
    expect(isSwitchyardError(error)).toBe(true);
    expect((error as { code: string }).code).toBe('E_MISSING_PACKAGE');
    expect((error as Error).message).toBe(
      'the store needs the compiled addon of some-native, which is missing (it was installed without running its install script): run `npm rebuild some-native`, or pass --no-store',
    );
    expect((error as Error).cause).toBe(NEVER_BUILT);
  });

  it('answers an addon built for another Node, or failing at import, the same way', async () => {
    const other = await failure(importOptional(NATIVE, driverFailingWith(OTHER_NODE), probe));
    expect((other as Error).message).toBe(
      'the store needs the compiled addon of some-native, which does not load here (it was built for another version of Node): run `npm rebuild some-native`, or pass --no-store',
    );
    const atImport = await failure(
      importOptional(NATIVE, () =>
        Promise.reject(addonError('/p/x.node: invalid ELF header', 'ERR_DLOPEN_FAILED')),
      ),
    );
    expect((atImport as Error).message).toContain('which does not load here (/p/x.node: invalid ELF header)');
  });

  it('leaves an addon error of a package not declared native, and any other probe failure, as they are', async () => {
    const plain = await failure(
      importOptional({ name: 'plain', neededFor: 'testing' }, driverFailingWith(NEVER_BUILT), probe),
    );
    expect(plain).toBe(NEVER_BUILT);
    const locked = addonError('database is locked', 'SQLITE_BUSY');
    expect(await failure(importOptional(NATIVE, driverFailingWith(locked), probe))).toBe(locked);
  });

  it('reads why an addon does not load, and nothing from other errors', () => {
    expect(brokenAddonOf(NEVER_BUILT)).toBe('missing');
    expect(brokenAddonOf(OTHER_NODE)).toEqual({ reason: 'it was built for another version of Node' });
    expect(brokenAddonOf(new Error('SQLITE_CANTOPEN: unable to open database file'))).toBeUndefined();
    expect(brokenAddonOf('a string')).toBeUndefined();
  });

  it('says to approve the install script, or to rebuild, when pnpm installed the package', async () => {
    const layout = '/p/node_modules/.pnpm/some-native@1.0.0/node_modules/some-native';
    const never = addonError(`Could not locate the bindings file. Tried:\n → ${layout}/build/x.node`);
    const other = addonError(`The module '${layout}/build/Release/x.node'\nNODE_MODULE_VERSION 108.`);
    expect(
      ((await failure(importOptional(NATIVE, driverFailingWith(never), probe))) as Error).message,
    ).toContain('run `pnpm approve-builds` and pick some-native, or pass --no-store');
    expect(
      ((await failure(importOptional(NATIVE, driverFailingWith(other), probe))) as Error).message,
    ).toContain('run `pnpm rebuild some-native`, or pass --no-store');
  });

  it('answers for better-sqlite3 with what needs it, its rebuild command and --no-store', async () => {
    const error = await failure(importOptional(SQLITE_DRIVER, driverFailingWith(NEVER_BUILT), probe));
    expect((error as Error).message).toBe(
      'the run store (an SQLite file) needs the compiled addon of better-sqlite3, which is missing (it was installed without running its install script): run `npm rebuild better-sqlite3`, or pass --no-store to record nothing',
    );
  });
});

describe('compilerFailure', () => {
  it("answers esbuild's binary missing for this platform, or installed for another, in one line", () => {
    const missing = compilerFailure(
      new Error(
        'The package "@esbuild/linux-x64" could not be found, and is needed by esbuild.\n\nIf you are installing esbuild with npm, …',
      ),
    );
    expect(missing?.code).toBe('E_MISSING_PACKAGE');
    expect(missing?.message).toBe(
      "loading a node module written in TypeScript needs esbuild's binary for this platform, the package @esbuild/linux-x64, which is not installed: run `npm install --include=optional tsx`, or write the node module in JavaScript (.js, .mjs)",
    );
    const elsewhere = compilerFailure(
      new Error("\nYou installed esbuild for another platform than the one you're currently using.\n…"),
    );
    expect(elsewhere?.message).toContain('the one installed is for another: run `npm ci` on this machine');
    expect(compilerFailure(new Error('Transform failed with 1 error'))).toBeUndefined();
  });
});
