/**
 * Reads a runtime policy file: strict JSON, checked against schemas/policy.schema.json, merged over the
 * defaults.
 */
import { readFile } from 'node:fs/promises';
import { parseJson } from '../document/parse-json.ts';
import { problem, SwitchyardError } from '../errors.ts';
import { policyErrorMessage, resolvePolicy } from './resolve.ts';
import { validatePolicyInput } from './schema.ts';
import type { PolicyInput, RuntimePolicy } from './types.ts';

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      const message = `policy file ${path} does not exist — check the path (a DAG's policy is <dag-file-stem>.policy.json beside it)`;
      throw new SwitchyardError('E_FILE_NOT_FOUND', message, {
        cause,
        problems: [problem('E_FILE_NOT_FOUND', message, { file: path })],
      });
    }
    const message = `cannot read policy file ${path} (${String(code ?? cause)}) — check that it is a readable file`;
    throw new SwitchyardError('E_FILE_READ', message, {
      cause,
      problems: [problem('E_FILE_READ', message, { file: path })],
    });
  }
}

/**
 * Loads a policy file and returns the complete, frozen policy. Throws `E_FILE_NOT_FOUND` when the file is
 * missing, and `E_POLICY` listing every problem (JSON syntax errors with line and column; schema violations
 * with pointer, line and column) when it is not a valid policy.
 *
 * @example
 * const policy = await loadPolicyFile('dags/compose-validate.policy.json');
 */
export async function loadPolicyFile(path: string): Promise<RuntimePolicy> {
  const text = await readText(path);
  const parsed = parseJson(text, path);
  if (parsed.problems.length > 0) {
    throw new SwitchyardError(
      'E_POLICY',
      `${path}: ${policyErrorMessage(parsed.problems, 'the policy file')}`,
      {
        problems: parsed.problems,
      },
    );
  }
  const problems = validatePolicyInput(parsed.value, { file: path, locate: parsed.locate });
  if (problems.length > 0) {
    throw new SwitchyardError('E_POLICY', `${path}: ${policyErrorMessage(problems, 'the policy file')}`, {
      problems,
    });
  }
  return resolvePolicy(parsed.value as PolicyInput);
}
