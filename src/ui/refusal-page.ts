/** The small page a refused or unknown request gets: the status and one line, plain, with a way back. */
import type { Context } from 'hono';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/gu, (ch) => `&#${ch.codePointAt(0)};`);

/** `segment` percent-decoded, or as written when it is not valid percent-encoding. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Whether a request is for the JSON API: its path as sent starts with `/api/` (however encoded, and before
 * URL parsing resolves `/api/../`), its resolved path does, or it asks for JSON rather than a page.
 */
export function wantsJson(c: Context): boolean {
  const raw: string = (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url ?? '';
  const first = raw.split(/[?#]/u, 1)[0]?.split('/')[1] ?? '';
  if (decoded(first).toLowerCase() === 'api') return true;
  if (new URL(c.req.url).pathname.startsWith('/api/')) return true;
  const accept = c.req.header('accept') ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

/**
 * Answers with `status` and a page saying `line`; JSON with a stable code for requests to the API.
 * @example
 * return refusalPage(c, 400, 'refused: the path climbs out of the served folder');
 */
export function refusalPage(c: Context, status: 400 | 403 | 404, line: string): Response {
  if (wantsJson(c)) {
    return c.json({ error: { code: status === 404 ? 'E_NOT_FOUND' : 'E_REFUSED', message: line } }, status);
  }
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status} · Switchyard</title><meta name="color-scheme" content="light dark"></head><body style="font-family:system-ui,sans-serif;margin:2rem"><h1>${status}</h1><p id="refusal">${escapeHtml(line)}</p><p><a href="/">Back to the viewer</a></p></body></html>`;
  return c.html(html, status);
}
