/**
 * Keeps every file the viewer serves inside the folder it serves: a request path is refused when any of
 * its segments, however percent-encoded, climbs out (`..`), names the folder itself (`.`), holds a
 * separator or a NUL, or when the file it names is a symlink that leads outside.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

/** Where a request path leads: a file inside the folder, or a refusal with its HTTP status and reason. */
export type PathVerdict =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly status: 400 | 403 | 404; readonly reason: string };

// Decoding stops after a few rounds: `%252e%252e` is `%2e%2e` once decoded, `..` twice.
const MAX_DECODES = 4;

/** A segment decoded until it no longer changes (or a bad escape is met, which is kept as written). */
function decodeFully(segment: string): string {
  let text = segment;
  for (let i = 0; i < MAX_DECODES; i++) {
    let next: string;
    try {
      next = decodeURIComponent(text);
    } catch {
      return text;
    }
    if (next === text) return text;
    text = next;
  }
  return text;
}

/** Why a decoded segment cannot name a file inside the folder, or undefined when it can. */
function segmentProblem(segment: string): string | undefined {
  // An encoded separator hides more segments in one: `..%2f` is a climb as much as `../` is.
  const parts = segment.split(/[/\\]/u);
  if (parts.some((part) => part === '..' || part === '.')) return 'the path climbs out of the served folder';
  if (parts.length > 1 || segment.includes('\0')) return 'the path hides a separator or a NUL in a segment';
  return undefined;
}

/**
 * The reason a raw request path (as sent, before any URL normalisation) reaches outside the served folder,
 * or undefined when it does not. Checked before routing, because URL parsers resolve `/../` and `%2e%2e`.
 * @example
 * traversalIn('/api/documents/%2e%2e/secret') // 'the path climbs out of the served folder'
 */
export function traversalIn(rawPath: string): string | undefined {
  const path = rawPath.split(/[?#]/u, 1)[0] ?? '';
  for (const raw of path.split('/')) {
    const problem = segmentProblem(decodeFully(raw));
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Whether `child` is `parent` or below it. */
function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The real path of the file `segments` (already split, each still percent-encoded) names inside `root`, or a
 * refusal: 400 for a path that tries to leave the folder, 403 for a symlink that leads out of it, 404 for a
 * file that does not exist.
 * @example
 * await resolveInside('/srv/dags', ['archivist', 'ask.jsonld'])
 */
export async function resolveInside(root: string, segments: readonly string[]): Promise<PathVerdict> {
  const decoded: string[] = [];
  for (const raw of segments) {
    if (raw === '') continue;
    const segment = decodeFully(raw);
    const problem = segmentProblem(segment);
    if (problem !== undefined) return { ok: false, status: 400, reason: problem };
    decoded.push(segment);
  }
  if (decoded.length === 0) return { ok: false, status: 404, reason: 'no file named' };
  const realRoot = await realpath(root);
  const real = await realpath(join(realRoot, ...decoded)).catch(() => undefined);
  if (real === undefined) return { ok: false, status: 404, reason: 'no such file in the served folder' };
  if (!isInside(realRoot, real)) {
    return { ok: false, status: 403, reason: 'the path is a link that leads out of the served folder' };
  }
  return { ok: true, path: real };
}
