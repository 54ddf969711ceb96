/**
 * Build step (run by scripts/build.ts as `node --import tsx scripts/build-ui-page.ts <out>`): copies the web
 * viewer's page (plain ES modules, a stylesheet, the HTML shell, served as they are) beside the compiled
 * `src/ui/`, where `src/ui/assets.ts` finds it.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = process.argv[2];
if (out === undefined) {
  process.stderr.write('usage: node --import tsx scripts/build-ui-page.ts <output folder>\n');
  process.exit(2);
}
const page = fileURLToPath(new URL('../src/ui/page/', import.meta.url));
await cp(page, join(out, 'src', 'ui', 'page'), { recursive: true });
