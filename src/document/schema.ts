/**
 * The compiled DAG schema (`schemas/dag.schema.json`) and the mapping of its errors to `E_SCHEMA` problems
 * whose messages say how to fix the document.
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { type Problem, problem } from '../errors.ts';
import { clip, MAX_SCHEMA_PROBLEMS, quote } from './limits.ts';
import type { Locate } from './parse-json.ts';

const SCHEMA_FILE = new URL('../../schemas/dag.schema.json', import.meta.url);

type SchemaNode = Record<string, unknown>;

// ajv-formats is CommonJS: under NodeNext its default import is the module object, whose `default` is the plugin.
const addFormats = formats.default;

let compiled: { validate: ValidateFunction; schema: SchemaNode } | undefined;

/** The parsed DAG schema and its validator, compiled on first use. */
function dagSchema(): { validate: ValidateFunction; schema: SchemaNode } {
  if (!compiled) {
    const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as SchemaNode;
    const ajv = new Ajv2020({
      allErrors: true,
      discriminator: true,
      strict: true,
      strictRequired: false,
      verbose: true,
    });
    addFormats(ajv);
    compiled = { validate: ajv.compile(schema), schema };
  }
  return compiled;
}

/** Where problems found in a document are reported. */
export interface SchemaContext {
  readonly file?: string;
  /** Maps pointers to line/column when the document's text is known. */
  readonly locate?: Locate;
  /** Said before each message when the pointers do not refer to the text as written (normalised documents). */
  readonly prefix?: string;
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function show(pointer: string): string {
  // Control characters in a property name are shown escaped, so a message stays on one line.
  const escaped = JSON.stringify(pointer).slice(1, -1);
  return escaped === '' ? 'document' : escaped.slice(1);
}

function list(values: readonly unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : quote(v))).join(', ');
}

/** Pointer segments that would reach an object's prototype when followed in item data. */
const PROTOTYPE_SEGMENT = /(^|\/)(__proto__|constructor|prototype)(\/|$)/;

/** The placement kinds the schema's discriminated union allows. */
function placementKinds(schema: SchemaNode): string[] {
  const defs = schema.$defs as Record<string, SchemaNode>;
  const branches = (defs.placement?.oneOf ?? []) as SchemaNode[];
  return branches.map((b) => String(b.$ref).split('/').pop() ?? '');
}

function describe(error: ErrorObject, schema: SchemaNode): { pointer: string; text: string } {
  const at = error.instancePath;
  const parent = (error.parentSchema ?? {}) as SchemaNode;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const allowed = Object.keys((parent.properties ?? {}) as SchemaNode);
      return {
        pointer: `${at}/${escapeSegment(name)}`,
        text: `${show(at)}: unknown property '${clip(name)}' — remove it or check its spelling; allowed: ${list(allowed)}`,
      };
    }
    case 'required':
      return {
        pointer: at,
        text: `${show(at)}: missing required property '${String(params.missingProperty)}' — add it`,
      };
    case 'discriminator': {
      const kinds = placementKinds(schema);
      if (params.error === 'tag') {
        return { pointer: at, text: `${show(at)}: 'kind' must be a string — use one of ${list(kinds)}` };
      }
      return {
        pointer: `${at}/kind`,
        text: `${show(at)}: unknown kind ${quote(params.tagValue)} — use one of ${list(kinds)}`,
      };
    }
    case 'enum':
      return {
        pointer: at,
        text: `${show(at)}: ${quote(error.data)} is not allowed — use one of ${list(params.allowedValues as unknown[])}`,
      };
    case 'const':
      return {
        pointer: at,
        text: `${show(at)}: must be exactly ${quote(params.allowedValue)} — write it so`,
      };
    case 'type':
      return {
        pointer: at,
        text: `${show(at)}: must be ${String(params.type)}, not ${quote(error.data)} — change its type`,
      };
    case 'pattern': {
      if (
        typeof error.data === 'string' &&
        PROTOTYPE_SEGMENT.test(error.data) &&
        /pointer/i.test(String(parent.description))
      ) {
        return {
          pointer: at,
          text: `${show(at)}: the pointer ${quote(error.data)} names __proto__, constructor or prototype, which would reach the prototype of every object — rename that field of the item data`,
        };
      }
      const what =
        typeof parent.description === 'string' ? parent.description : `must match ${String(params.pattern)}`;
      return { pointer: at, text: `${show(at)}: ${quote(error.data)} is malformed — ${what}` };
    }
    case 'minLength':
    case 'minItems':
      return { pointer: at, text: `${show(at)}: must not be empty — fill it in` };
    case 'maxLength':
      return {
        pointer: at,
        text: `${show(at)}: longer than ${String(params.limit)} characters — shorten it`,
      };
    case 'uniqueItems':
      return {
        pointer: at,
        text: `${show(at)}: items ${String(params.j)} and ${String(params.i)} are the same — write each once`,
      };
    case 'minimum':
    case 'maximum':
      return {
        pointer: at,
        text: `${show(at)}: ${quote(error.data)} is out of range — it ${error.message ?? 'is out of range'}`,
      };
    case 'oneOf': {
      const branches = (parent.oneOf ?? []) as SchemaNode[];
      const alternatives = branches.flatMap((b) =>
        Array.isArray(b.required) ? (b.required as string[]) : [],
      );
      if (alternatives.length === branches.length && alternatives.length > 0) {
        return {
          pointer: at,
          text: `${show(at)}: needs exactly one of ${alternatives.map((a) => `'${a}'`).join(' or ')} — keep one`,
        };
      }
      return {
        pointer: at,
        text: `${show(at)}: matches none or several of the allowed shapes — check its properties`,
      };
    }
    default:
      return { pointer: at, text: `${show(at)}: ${error.message ?? 'is invalid'} — correct it` };
  }
}

/** Drops the per-branch errors of a failed `oneOf`: the `oneOf` problem itself says what to do. */
function withoutBranchNoise(errors: readonly ErrorObject[]): ErrorObject[] {
  const oneOfs = errors.filter((e) => e.keyword === 'oneOf');
  return errors.filter(
    (e) =>
      !oneOfs.some(
        (o) => o !== e && o.instancePath === e.instancePath && e.schemaPath.startsWith(`${o.schemaPath}/`),
      ),
  );
}

/**
 * Validates a canonical document against the DAG schema; every error becomes an `E_SCHEMA` problem.
 *
 * @example
 * ```ts
 * const problems = validateSchema(JSON.parse(text), { file: 'dags/x.jsonld', locate: locator(text) });
 * ```
 */
export function validateSchema(document: unknown, context: SchemaContext = {}): Problem[] {
  const { validate, schema } = dagSchema();
  if (validate(document)) return [];
  const seen = new Set<string>();
  const problems: Problem[] = [];
  const errors = withoutBranchNoise(validate.errors ?? []);
  for (const error of errors) {
    if (problems.length === MAX_SCHEMA_PROBLEMS) {
      problems.push(
        problem(
          'E_SCHEMA',
          `and more schema problems not shown (at most ${MAX_SCHEMA_PROBLEMS} are listed) — fix those above first`,
          context.file === undefined ? {} : { file: context.file },
        ),
      );
      break;
    }
    const { pointer, text } = describe(error, schema);
    const message = context.prefix === undefined ? text : `${context.prefix}${text}`;
    if (seen.has(message)) continue;
    seen.add(message);
    const position = context.locate?.(pointer);
    problems.push(
      problem('E_SCHEMA', message, {
        ...(context.file === undefined ? {} : { file: context.file }),
        ...(context.prefix === undefined ? { pointer } : {}),
        ...(position ?? {}),
      }),
    );
  }
  return problems;
}
