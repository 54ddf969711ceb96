/**
 * Generates the JSON Schema validators of `schemas/` as ES modules (Ajv standalone code), so that no schema
 * is compiled when a program starts. The generated files are checked in; `test/document/validators.test.ts`
 * fails when one differs from what this script writes now.
 *
 *   node --import tsx scripts/generate-validators.ts           writes the files
 *   node --import tsx scripts/generate-validators.ts --check   exits 1 when a file is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';

const ROOT = new URL('../', import.meta.url);

/** One generated validator: the schema it checks and the module it is written to. */
export interface ValidatorTarget {
  /** The schema file, relative to the repository root. */
  readonly schema: string;
  /** The generated module, relative to the repository root. */
  readonly module: string;
}

/** Every validator the programs use. */
export const VALIDATORS: readonly ValidatorTarget[] = Object.freeze([
  { schema: 'schemas/dag.schema.json', module: 'src/document/dag.validator.generated.ts' },
  { schema: 'schemas/policy.schema.json', module: 'src/policy/policy.validator.generated.ts' },
]);

// Ajv's code calls its runtime helpers through require(); the one the schemas need is replaced by an import
// of the project's own copy, and any other fails the generation instead of producing a module that breaks.
const RUNTIME_HELPERS: Readonly<Record<string, { name: string; module: string }>> = {
  'require("ajv/dist/runtime/ucs2length").default': {
    name: 'ucs2length',
    module: 'src/document/ucs2length.ts',
  },
};

/** The import path of `target` from the folder of `from`, both relative to the repository root. */
function importPath(from: string, target: string): string {
  const path = relative(fileURLToPath(new URL(`${from}/..`, ROOT)), fileURLToPath(new URL(target, ROOT)));
  return path.startsWith('.') ? path : `./${path}`;
}

/**
 * The text of the generated module for `target`. The Ajv options are those the messages rely on: every
 * error (`allErrors`), the schema objects in each error (`verbose`), and the discriminated placement union.
 */
export function validatorSource(target: ValidatorTarget): string {
  const schema = JSON.parse(readFileSync(new URL(target.schema, ROOT), 'utf8')) as object;
  const ajv = new Ajv2020({
    allErrors: true,
    discriminator: true,
    strict: true,
    strictRequired: false,
    verbose: true,
    code: { source: true, esm: true, lines: true },
  });
  let code = standalone.default(ajv, ajv.compile(schema)).replace(/^"use strict";\n/u, '');
  const imports: string[] = [];
  for (const [call, helper] of Object.entries(RUNTIME_HELPERS)) {
    if (!code.includes(call)) continue;
    code = code.replaceAll(call, helper.name);
    imports.push(`import { ${helper.name} } from '${importPath(target.module, helper.module)}';`);
  }
  const unknown = /require\([^)]*\)/u.exec(code);
  if (unknown)
    throw new Error(`${target.schema}: the generated code calls ${unknown[0]}, which has no import`);
  return [
    '// @ts-nocheck',
    `// Generated from ${target.schema} by scripts/generate-validators.ts (Ajv standalone code). Do not edit:`,
    '// run `node --import tsx scripts/generate-validators.ts` after changing the schema.',
    ...imports,
    code.trimEnd(),
    '',
  ].join('\n');
}

function main(check: boolean): number {
  let stale = 0;
  for (const target of VALIDATORS) {
    const text = validatorSource(target);
    const file = new URL(target.module, ROOT);
    const current = (() => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return undefined;
      }
    })();
    if (current === text) continue;
    if (check) {
      process.stderr.write(
        `${target.module} is stale: run node --import tsx scripts/generate-validators.ts\n`,
      );
      stale++;
    } else {
      writeFileSync(file, text);
      process.stdout.write(`wrote ${target.module}\n`);
    }
  }
  return stale === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.includes('--check'));
}
