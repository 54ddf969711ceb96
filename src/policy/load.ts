/**
 * Reads a runtime policy file: strict JSON, checked against schemas/policy.schema.json, merged over the
 * defaults.
 */
import { readFile, stat } from 'node:fs/promises';
import { decodeUtf8OrThrow } from '../document/decode-text.ts';
import { parseJson } from '../document/parse-json.ts';
import { problem, SwitchyardError } from '../errors.ts';
import { gatePolicyProblems } from '../gates/check.ts';
import { policyErrorMessage, resolvePolicy } from './resolve.ts';
import { validatePolicyInput } from './schema.ts';
import type { PolicyInput, RuntimePolicy } from './types.ts';

async function readText(path: string): Promise<string> {
  // A FIFO or device would keep the read waiting for ever; only a regular file is read.
  const found = await stat(path).catch(() => undefined);
  if (found !== undefined && !found.isFile()) {
    const message = `policy file ${path} is not a regular file — give the path of a .json file`;
    throw new SwitchyardError('E_FILE_READ', message, {
      problems: [problem('E_FILE_READ', message, { file: path })],
    });
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
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
  return decodeUtf8OrThrow(bytes, path, `policy file ${path}`);
}

/** A policy file as read: the complete policy, the object as written, and where each pointer is written. */
export interface PolicyFile {
  readonly file: string;
  readonly policy: RuntimePolicy;
  /** The policy as written, its override maps with every key the file gives (`__proto__` included). */
  readonly input: PolicyInput;
  readonly locate: (pointer: string) => { readonly line: number; readonly column: number } | undefined;
}

/**
 * Reads a policy file like {@link loadPolicyFile}, keeping what is needed to check its override keys
 * against documents (`unknownPolicyKeys`) and to point at them.
 */
export async function readPolicyFile(path: string): Promise<PolicyFile> {
  return parsePolicyText(await readText(path), path);
}

/**
 * A policy from its text, as {@link readPolicyFile} reads a file: strict JSON checked against the schema;
 * `file` names it in problems (a path, or `<stdin>`). Throws `E_POLICY` listing every problem, or the code
 * of the first problem of its gates (`E_GATE_OVERLAP`, `E_GATE_KEYS`, `E_GATE_RATE`) listing those.
 */
export function parsePolicyText(text: string, file: string): PolicyFile {
  const parsed = parseJson(text, file);
  const problems =
    parsed.problems.length > 0
      ? parsed.problems
      : validatePolicyInput(parsed.value, { file, locate: parsed.locate });
  if (problems.length > 0) {
    throw new SwitchyardError('E_POLICY', `${file}: ${policyErrorMessage(problems, 'the policy')}`, {
      problems,
    });
  }
  const input = parsed.value as PolicyInput;
  // What the schema cannot say of gates, at its line here rather than without one from resolvePolicy.
  const gates = gatePolicyProblems(input.gates, { file, locate: parsed.locate });
  const first = gates[0];
  if (first !== undefined) {
    throw new SwitchyardError(first.code, `${file}: ${policyErrorMessage(gates, 'the policy')}`, {
      problems: gates,
    });
  }
  return { file, policy: resolvePolicy(input), input, locate: parsed.locate };
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
  return (await readPolicyFile(path)).policy;
}
