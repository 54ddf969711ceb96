import { connect } from 'node:net';

/** How long the reachability probe waits for a TCP connection. */
const PROBE_MS = 3000;

/**
 * Whether a TCP connection to the URL's host and port opens: a quick check before a run, so that an
 * endpoint that is down is one clear error rather than a run of retries.
 */
export function isReachable(url: string): Promise<boolean> {
  let host: string;
  let port: number;
  try {
    const parsed = new URL(url);
    host = parsed.hostname.replace(/^\[|\]$/g, '');
    port = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(PROBE_MS, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
