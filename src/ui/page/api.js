// Reads the viewer's JSON endpoints; a failure is a value with the one line to show, never a throw.

/**
 * GETs `path` and resolves to `{ ok: true, data }` or `{ ok: false, status, code, message }`.
 * @param {string} path
 */
export async function getJson(path) {
  let response;
  try {
    response = await fetch(path, { headers: { accept: 'application/json' } });
  } catch {
    return {
      ok: false,
      status: 0,
      code: 'E_OFFLINE',
      message: 'the viewer is not answering: is `switchyard ui` still running?',
    };
  }
  let body;
  try {
    body = await response.json();
  } catch {
    return {
      ok: false,
      status: response.status,
      code: 'E_BAD_ANSWER',
      message: `the viewer answered ${response.status} without JSON`,
    };
  }
  if (!response.ok) {
    const error = body?.error ?? {};
    return {
      ok: false,
      status: response.status,
      code: error.code ?? 'E_UNKNOWN',
      message: error.message ?? `HTTP ${response.status}`,
    };
  }
  return { ok: true, data: body };
}

/** Encodes a path relative to the served folder for a URL, segment by segment. */
export function encodePath(path) {
  return path.split('/').map(encodeURIComponent).join('/');
}

let metaAnswer;

/** The viewer's `/api/meta` (version, folder, store, whether ELK is served), asked for once per page load. */
export function getMeta() {
  metaAnswer ??= getJson('/api/meta');
  return metaAnswer;
}
