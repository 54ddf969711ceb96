/**
 * The attribute names Switchyard's spans carry (docs/TELEMETRY.md has the table): the OpenTelemetry
 * semantic conventions' where one exists, `switchyard.*` otherwise.
 */
export const ATTR = Object.freeze({
  /** Semantic conventions: the class of error an operation ended with (here the error's stable code). */
  errorType: 'error.type',
  /** Semantic conventions (GenAI): the operation a span stands for; `invoke_workflow` on a run's span. */
  genAiOperation: 'gen_ai.operation.name',
  /** Semantic conventions (HTTP): the status of a response an error carried. */
  httpStatus: 'http.response.status_code',
  runId: 'switchyard.run.id',
  runItems: 'switchyard.run.items',
  runResumed: 'switchyard.run.resumed',
  runStatus: 'switchyard.run.status',
  runCompleted: 'switchyard.run.completed',
  runFailed: 'switchyard.run.failed',
  dagIri: 'switchyard.dag.iri',
  dagName: 'switchyard.dag.name',
  dagHash: 'switchyard.dag.hash',
  placement: 'switchyard.placement',
  item: 'switchyard.item',
  visit: 'switchyard.visit',
  deadlineMs: 'switchyard.deadline_ms',
  output: 'switchyard.output',
  routeKind: 'switchyard.route.kind',
  routeTo: 'switchyard.route.to',
  budget: 'switchyard.budget',
  budgetCount: 'switchyard.budget.count',
  exhausted: 'switchyard.budget.exhausted',
  exhaustedWhy: 'switchyard.budget.exhausted_why',
  errorKind: 'switchyard.error.kind',
  errorRetryable: 'switchyard.error.retryable',
  waitKind: 'switchyard.wait.kind',
  delayMs: 'switchyard.wait.delay_ms',
  delaySource: 'switchyard.wait.delay_source',
  waitedMs: 'switchyard.wait.waited_ms',
  gate: 'switchyard.gate',
  gateKey: 'switchyard.gate.key',
  gateWhy: 'switchyard.gate.why',
  token: 'switchyard.await.token',
  answers: 'switchyard.await.answers',
  deadlineAt: 'switchyard.await.deadline_at',
  early: 'switchyard.await.early',
  reason: 'switchyard.reason',
  interrupted: 'switchyard.interrupted',
  cancelled: 'switchyard.cancelled',
});

/** The value of `gen_ai.operation.name` on a run's span. */
export const INVOKE_WORKFLOW = 'invoke_workflow';
