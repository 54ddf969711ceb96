/**
 * Stable codes for every problem Switchyard reports, and the error class that carries them.
 * Codes never change meaning; messages say what is wrong and how to fix it.
 */

/** Problems found while reading, checking or analysing documents and policies. */
export type ProblemCode =
  | 'E_FILE_NOT_FOUND'
  | 'E_FILE_READ'
  | 'E_ENCODING'
  | 'E_JSON_SYNTAX'
  | 'E_TOO_DEEP'
  | 'E_TOO_LARGE'
  | 'E_TOO_COSTLY'
  | 'E_JSONLD'
  | 'E_CONTEXT_REFUSED'
  | 'E_JSONLD_LOSSY'
  | 'E_SCHEMA'
  | 'E_DUPLICATE_KEY'
  | 'E_DUPLICATE_BUDGET'
  | 'E_DUPLICATE_OUTPUT'
  | 'E_DANGLING_ROUTE'
  | 'E_DANGLING_ENTRYPOINT'
  | 'E_DANGLING_EXHAUSTION'
  | 'E_ENTRYPOINT_KIND'
  | 'E_UNKNOWN_BUDGET'
  | 'E_RETRY_WITHOUT_BUDGET'
  | 'E_RETRY_WITHOUT_EXHAUSTION'
  | 'E_BUDGET_ON_NON_RETRY'
  | 'E_UNREACHABLE'
  | 'E_NO_TERMINAL_PATH'
  | 'E_UNBOUNDED_LOOP'
  | 'E_RESET_CYCLE'
  | 'E_SCATTER_WITHOUT_GATHER'
  | 'E_UNKNOWN_NODE'
  | 'E_UNKNOWN_OUTPUT'
  | 'E_UNKNOWN_DAG'
  | 'E_EMBED_CYCLE'
  | 'E_AMBIGUOUS_DAG'
  | 'E_POLICY'
  | 'E_POLICY_UNKNOWN_KEY'
  | 'E_GATE_OVERLAP'
  | 'E_GATE_KEYS'
  | 'E_GATE_RATE'
  | 'E_AWAIT_DEADLINE_ROUTE'
  | 'E_AWAIT_NO_DEADLINE'
  | 'W_UNUSED_BUDGET'
  | 'W_DUPLICATE_ID'
  | 'W_UNROUTED_OUTPUT'
  | 'W_NO_COMPLETED_TERMINAL'
  | 'W_GATE_UNKNOWN_MEMBER'
  | 'W_GATE_UNGATED_MEMBER';

/** Failures at run time and of the command line, beyond document problems. */
export type RuntimeCode =
  | 'E_NODE_NOT_REGISTERED'
  | 'E_NODE_MODULE'
  | 'E_UNROUTED_OUTPUT'
  | 'E_NODE_ERROR'
  | 'E_DEADLINE'
  | 'E_RUN_DEADLINE'
  | 'E_ABORTED'
  | 'E_INPUT'
  | 'E_STEP_VALUE'
  | 'E_ITEM_DATA'
  | 'E_GATE_KEY'
  | 'E_ALREADY_ANSWERED'
  | 'E_ANSWER'
  | 'E_UNKNOWN_TOKEN'
  | 'E_STATE_VALUE'
  | 'E_CHROMIUM_NOT_FOUND'
  | 'E_RENDER'
  | 'E_MERMAID_SYNTAX'
  | 'E_TRACE'
  | 'E_USAGE'
  | 'E_ENGINE'
  | 'E_WRITE'
  | 'E_CANCELLED'
  | 'E_RESUME_UNKNOWN_RUN'
  | 'E_RESUME_NEWER_RUN'
  | 'E_RESUME_DAG_CHANGED'
  | 'E_RUN_FINISHED'
  | 'E_NO_RUNS'
  | 'E_MISSING_PACKAGE'
  | 'W_RETRY_AFTER_IGNORED'
  | 'W_CHECKPOINT_DATA_CONVERTED'
  | 'W_ANSWER_IGNORED';

/** Failures of the run store: its file, its schema, its lease and the records it holds. */
export type StoreCode =
  | 'E_STORE_OPEN'
  | 'E_STORE_NOT_A_DATABASE'
  | 'E_STORE_CORRUPT'
  | 'E_STORE_READ_ONLY'
  | 'E_STORE_FULL'
  | 'E_STORE_IO'
  | 'E_STORE_LOCKED'
  | 'E_STORE_TOO_NEW'
  | 'E_STORE_SCHEMA_CHANGED'
  | 'E_STORE_CONFLICT'
  | 'E_STORE_UNKNOWN_RUN'
  | 'E_STORE_LEASE_HELD'
  | 'E_STORE_LEASE_LOST'
  | 'E_STORE_CLOSED'
  | 'E_STORE_UNREACHABLE'
  | 'E_STORE_RUN_LOST';

export type ErrorCode = ProblemCode | RuntimeCode | StoreCode;

/** One thing wrong (or suspicious, for warnings) with a document, with where it is and how to fix it. */
export interface Problem {
  readonly code: ProblemCode;
  readonly severity: 'error' | 'warning';
  /** What is wrong, then how to fix it, in one line. */
  readonly message: string;
  readonly file?: string;
  /** RFC 6901 pointer into the document as written, when known. */
  readonly pointer?: string;
  readonly placement?: string;
  /** 1-based position in the file, when known. */
  readonly line?: number;
  readonly column?: number;
  /** For E_UNBOUNDED_LOOP / E_RESET_CYCLE: the placements (or budgets) of the cycle, in order. */
  readonly cycle?: readonly string[];
}

/** An error with a stable code. User mistakes are reported with `message` alone, never a stack trace. */
export class SwitchyardError extends Error {
  readonly code: ErrorCode;
  readonly problems: readonly Problem[];

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; problems?: readonly Problem[] } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SwitchyardError';
    this.code = code;
    this.problems = options.problems ?? [];
  }
}

/**
 * True when `value` is a SwitchyardError (also across module copies); false for anything that cannot be
 * inspected (a Proxy whose traps throw, a throwing getter).
 */
export function isSwitchyardError(value: unknown): value is SwitchyardError {
  try {
    return (
      value instanceof Error &&
      value.name === 'SwitchyardError' &&
      typeof (value as { code?: unknown }).code === 'string'
    );
  } catch {
    return false;
  }
}

/** Builds a problem; `severity` follows the code's prefix. */
export function problem(
  code: ProblemCode,
  message: string,
  where: Omit<Problem, 'code' | 'severity' | 'message'> = {},
): Problem {
  return { code, severity: code.startsWith('W_') ? 'warning' : 'error', message, ...where };
}
