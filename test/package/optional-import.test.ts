import { describe, expect, it } from 'vitest';
import { isSwitchyardError } from '../../src/errors.ts';
import { importOptional, missingPackageOf } from '../../src/optional-import.ts';

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
