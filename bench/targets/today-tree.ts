/**
 * Today's engine beside this one: the `src/`, `schemas/` and `package.json` of a git commit extracted with
 * `git archive` into a temporary folder whose `node_modules` links to this tree's, so that tsx runs it in
 * the same process as this tree's engine. Nothing of the repository changes (no worktree is added).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** An extracted tree, or why none could be had. */
export type ExtractedTree =
  | { readonly root: string; remove(): void }
  | { readonly root?: undefined; readonly problem: string };

/**
 * Extracts the engine of commit `ref` of the repository at `repo`.
 * @example
 * const today = extractTree('/work/main', 'd49361a');
 * if (today.root !== undefined) { … today.remove(); }
 */
export function extractTree(repo: string, ref: string): ExtractedTree {
  const archive = spawnSync(
    'git',
    ['-C', repo, 'archive', '--format=tar', ref, 'src', 'schemas', 'package.json', 'tsconfig.json'],
    {
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  if (archive.error !== undefined || archive.status !== 0) {
    const why = archive.error?.message ?? archive.stderr.toString().trim().split('\n')[0];
    return { problem: `git archive of ${ref} failed: ${why}` };
  }
  const root = mkdtempSync(join(tmpdir(), 'switchyard-today-'));
  const remove = () => rmSync(root, { recursive: true, force: true });
  const unpacked = spawnSync('tar', ['-x', '-C', root], { input: archive.stdout });
  const modules = join(repo, 'node_modules');
  if (unpacked.status !== 0 || !existsSync(modules)) {
    remove();
    return { problem: `could not unpack ${ref} beside node_modules` };
  }
  symlinkSync(realpathSync(modules), join(root, 'node_modules'));
  return { root, remove };
}
