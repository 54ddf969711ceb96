/** The Hono environment of the viewer's application: Node's request and response behind each request. */
import type { HttpBindings } from '@hono/node-server';
import type { Context, Hono } from 'hono';

/** The bindings every handler sees. */
export type ViewerEnv = { Bindings: HttpBindings };

/** The viewer's application. */
export type ViewerHono = Hono<ViewerEnv>;

/** A request's context in the viewer's application. */
export type ViewerContext = Context<ViewerEnv>;
