/**
 * Switchyard's public API: load and check DAG documents, analyse them, run them with a dispatcher, and
 * the policy pieces (clocks, back-off, classification) a caller injects.
 */

export { type AwaitDeadlineOptions, awaitDeadlineProblems } from './awaits/check.ts';
export type { ParkedItem } from './awaits/desk.ts';
export type { AnswerReceipt, AnswerRequest } from './awaits/request.ts';
export { recordAnswer } from './awaits/stored.ts';
export { answerToken, isAnswerToken, type ParkingPlace } from './awaits/token.ts';
export type { AbortOutcome } from './distributed/abort.ts';
export {
  createDistributedDispatcher,
  type DistributedAbortOptions,
  type DistributedDispatcher,
  type DistributedDispatcherOptions,
  type DistributedRunOptions,
} from './distributed/dispatcher.ts';
export type { HandBackOptions } from './distributed/hand-back.ts';
export { type DistributedWorker, startWorker, type WorkerOptions } from './distributed/worker.ts';
export { type DagBuilder, dag } from './document/builder.ts';
export { documentLoader } from './document/context-loader.ts';
export { type ExportFormat, exportDag } from './document/export.ts';
export { canonicalNQuads, hashDag } from './document/hash.ts';
export { type LoadResult, libraryOf, loadDagFile, loadDagFolder, loadDagText } from './document/load.ts';
export {
  AWAIT_DEADLINE_OUTPUT,
  type AwaitPlacement,
  type Budget,
  CONTEXT_IRI,
  type Dag,
  type DagLibrary,
  type EmbedPlacement,
  type GatherPlacement,
  type Mapping,
  type PhasePlacement,
  type Placement,
  type PlacementKind,
  type Route,
  type RouteKind,
  type ScatterPlacement,
  type TaskPlacement,
  type TerminalPlacement,
  VOCAB_IRI,
} from './document/model.ts';
export { toDocument } from './document/serialise.ts';
export {
  type ErrorCode,
  isSwitchyardError,
  type Problem,
  type ProblemCode,
  type RuntimeCode,
  SwitchyardError,
} from './errors.ts';
export { type AnalyseOptions, analyse } from './graph/analyse.ts';
export { type Bounds, computeBounds } from './graph/bounds.ts';
export { type CompiledDag, type CompiledPlacement, type CompiledRoute, compile } from './graph/compile.ts';
export { type BudgetLoop, findCycles } from './graph/cycles.ts';
export { worstCaseTime } from './graph/worst-time.ts';
export { backoffDelay, maxBackoffDelay } from './policy/backoff.ts';
export { classifyError, type ErrorClassification } from './policy/classify.ts';
export { systemClock, withWallTime } from './policy/clock.ts';
export { defaultPolicy } from './policy/defaults.ts';
export { loadPolicyFile } from './policy/load.ts';
export { seededRandom } from './policy/random.ts';
export { resolvePolicy, timingFor } from './policy/resolve.ts';
export { parseRetryAfter, retryAfterFromHeaders, unusableRetryAfter } from './policy/retry-after.ts';
export type {
  BackoffOptions,
  BackoffStrategy,
  Clock,
  JitterMode,
  PolicyInput,
  Random,
  RuntimePolicy,
  TimingPolicy,
} from './policy/types.ts';
export { createVirtualClock, type VirtualClock, type VirtualClockOptions } from './policy/virtual-clock.ts';
export { defaultMermaidOptions, type MermaidOptions, toMermaid } from './render/mermaid.ts';
export { createRenderer, type Renderer, type RendererOptions } from './render/renderer.ts';
export { parseTrace, readTrace, summariseTrace, type TraceSummary } from './render/trace.ts';
export {
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
  type ResumeOptions,
  type RunOptions,
} from './runtime/dispatcher.ts';
export type { ErrorSummary, RunEvent } from './runtime/events.ts';
export type { ItemState } from './runtime/item-state.ts';
export type { StepInfo } from './runtime/journal.ts';
export {
  type BatchContext,
  createRegistry,
  defineNode,
  type ItemView,
  type NodeContext,
  type NodeDefinition,
  type NodeRegistry,
  type NodeResult,
} from './runtime/node.ts';
export type { Run, RunResult } from './runtime/run.ts';
export {
  createMemoryStore,
  type ItemCheckpoint,
  type ItemPosition,
  openRedisStore,
  openSqliteStore,
  type PositionFrame,
  type RedisStoreOptions,
  type RunRecord,
  type RunStore,
  type SqliteStoreOptions,
} from './store/index.ts';
export type { SpanLike, TraceAttributeValue, TracerProviderLike } from './telemetry/span-like.ts';
