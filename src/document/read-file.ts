/**
 * Reading a document file safely: only regular files are read (a FIFO, socket or device would block or never
 * end), and only up to {@link MAX_DOCUMENT_BYTES}. Opening without blocking keeps a FIFO with no writer from
 * hanging the open itself.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { type Problem, problem } from '../errors.ts';
import { decodeUtf8 } from './decode-text.ts';
import { MAX_DOCUMENT_BYTES } from './limits.ts';

/** The text of a file, or the one problem that kept it from being read. */
export type ReadOutcome = { readonly text: string } | { readonly problem: Problem };

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;
}

/**
 * Reads `path` as strict UTF-8 when it is a regular file of at most `maxBytes`; every failure is a problem
 * (`E_FILE_NOT_FOUND`, `E_FILE_READ`, `E_TOO_LARGE`, `E_ENCODING`), never an exception.
 *
 * @example
 * ```ts
 * const read = await readDocumentFile('dags/review.jsonld');
 * if ('problem' in read) console.error(read.problem.message);
 * ```
 */
export async function readDocumentFile(path: string, maxBytes = MAX_DOCUMENT_BYTES): Promise<ReadOutcome> {
  const where = { file: path };
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (info.isDirectory()) {
      return {
        problem: problem('E_FILE_READ', `${path} is a folder — name a .jsonld document`, where),
      };
    }
    if (!info.isFile()) {
      return {
        problem: problem(
          'E_FILE_READ',
          `${path} is not a regular file (a FIFO, socket or device) — name a .jsonld document file`,
          where,
        ),
      };
    }
    if (info.size > maxBytes) {
      return {
        problem: problem(
          'E_TOO_LARGE',
          `${path} is ${mib(info.size)}, over the limit of ${mib(maxBytes)} for a document — split it into documents that embed each other`,
          where,
        ),
      };
    }
    // One byte more than the stat said, so that a file growing while it is read is noticed.
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    if (length > info.size) {
      const grown = length > maxBytes;
      return {
        problem: problem(
          grown ? 'E_TOO_LARGE' : 'E_FILE_READ',
          grown
            ? `${path} is over the limit of ${mib(maxBytes)} for a document — split it into documents that embed each other`
            : `${path} changed while it was read — try again once it is written`,
          where,
        ),
      };
    }
    const decoded = decodeUtf8(buffer.subarray(0, length), path);
    return 'text' in decoded ? { text: decoded.text } : { problem: decoded.problem };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return { problem: problem('E_FILE_NOT_FOUND', `no such file: ${path} — check the path`, where) };
    }
    return {
      problem: problem(
        'E_FILE_READ',
        `cannot read ${path}: ${(error as Error).message} — check its permissions and that it is a file`,
        where,
      ),
    };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
