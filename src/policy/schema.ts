/**
 * Checks a policy object against schemas/policy.schema.json and turns every violation into a problem with
 * its JSON pointer.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import policySchema from '../../schemas/policy.schema.json' with { type: 'json' };
import { type Problem, problem } from '../errors.ts';

/** Where a problem is written: the file, and a way to map a pointer to its line and column. */
export interface ProblemSource {
  readonly file?: string;
  readonly locate?: (pointer: string) => { readonly line: number; readonly column: number } | undefined;
}

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  // verbose: messages list the allowed fields from the schema object an error comes from.
  compiled ??= new Ajv2020({ allErrors: true, strict: true, strictRequired: false, verbose: true }).compile(
    policySchema,
  );
  return compiled;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The pointer of the offending value: for an unknown property, the property itself. */
function pointerOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') {
    const name = (error.params as { additionalProperty: string }).additionalProperty;
    return `${error.instancePath}/${escapePointer(name)}`;
  }
  if (error.keyword === 'propertyNames') {
    const name = (error.params as { propertyName: string }).propertyName;
    return `${error.instancePath}/${escapePointer(name)}`;
  }
  return error.instancePath;
}

/** What is wrong and how to fix it, for one Ajv error. */
function describe(error: ErrorObject, pointer: string): string {
  const where = pointer === '' ? 'the policy' : pointer;
  switch (error.keyword) {
    case 'additionalProperties': {
      const allowed = Object.keys(
        (error.parentSchema as { properties?: object } | undefined)?.properties ?? {},
      );
      return `${where} is not a policy field — remove it or use one of: ${allowed.join(', ')}`;
    }
    case 'propertyNames':
      return `${where}: an override key must not be empty — name a node IRI or placement key`;
    case 'enum': {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues;
      return `${where} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    case 'type': {
      const type = (error.params as { type: string | string[] }).type;
      const types = (Array.isArray(type) ? type : type.split(',')).join(' or ');
      return `${where} must be ${types === 'number or null' ? 'a number of milliseconds, or null for none' : `of type ${types}`}`;
    }
    default:
      return `${where} ${error.message ?? 'is invalid'} — fix it to match schemas/policy.schema.json`;
  }
}

/**
 * Every way `value` breaks the policy schema, as `E_POLICY` problems with pointers (and line/column when
 * `source.locate` is given); empty when it is a valid policy.
 */
export function validatePolicyInput(value: unknown, source: ProblemSource = {}): Problem[] {
  const validate = validator();
  if (validate(value)) return [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const pointer = pointerOf(error);
    const message = describe(error, pointer);
    if (seen.has(message)) continue;
    seen.add(message);
    const position = source.locate?.(pointer);
    problems.push(
      problem('E_POLICY', message, {
        pointer,
        ...(source.file === undefined ? {} : { file: source.file }),
        ...(position === undefined ? {} : { line: position.line, column: position.column }),
      }),
    );
  }
  return problems;
}
