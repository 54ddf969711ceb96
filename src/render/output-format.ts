import { extname } from 'node:path';
import { SwitchyardError } from '../errors.ts';

/** The file formats a diagram is written in: Mermaid text, or an image rendered by Chromium. */
export type RenderFormat = 'svg' | 'png' | 'mmd';

/** Every {@link RenderFormat}. */
export const RENDER_FORMATS: readonly RenderFormat[] = ['svg', 'png', 'mmd'];

/** The format an output path asks for, by extension; anything else is a usage error. */
export function formatOfPath(path: string): RenderFormat {
  const ext = extname(path).slice(1).toLowerCase();
  const format = RENDER_FORMATS.find((f) => f === ext);
  if (!format) {
    throw new SwitchyardError(
      'E_USAGE',
      `cannot tell the format of ${path}: end the path with .svg, .png or .mmd`,
    );
  }
  return format;
}
