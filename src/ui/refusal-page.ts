/** The small page a refused or unknown request gets: the status and one line, plain, with a way back. */
import type { Context } from 'hono';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/gu, (ch) => `&#${ch.codePointAt(0)};`);

/**
 * Answers with `status` and a page saying `line`; JSON for requests under `/api/`.
 * @example
 * return refusalPage(c, 400, 'refused: the path climbs out of the served folder');
 */
export function refusalPage(c: Context, status: 400 | 403 | 404, line: string): Response {
  if (new URL(c.req.url).pathname.startsWith('/api/')) {
    return c.json({ error: { code: status === 404 ? 'E_NOT_FOUND' : 'E_REFUSED', message: line } }, status);
  }
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status} · Switchyard</title><meta name="color-scheme" content="light dark"></head><body style="font-family:system-ui,sans-serif;margin:2rem"><h1>${status}</h1><p id="refusal">${escapeHtml(line)}</p><p><a href="/">Back to the viewer</a></p></body></html>`;
  return c.html(html, status);
}
