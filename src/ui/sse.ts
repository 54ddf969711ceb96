/** What the viewer's server-sent event streams share. */

/**
 * The error handler of a stream: a stream that fails (the store closed as the viewer stops, the client
 * gone) just ends, and Hono sends the page an `error` event with the message; the page says live updates
 * stopped.
 */
export async function endQuietly(): Promise<void> {}
