/**
 * Exporting traces over OTLP/HTTP for the command line (`--otel`): the SDK, the exporter and the resource
 * detection are loaded only then. The exporter reads the standard `OTEL_EXPORTER_OTLP_*` variables itself
 * (endpoint, traces endpoint, headers, timeout); the resource reads `OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES`.
 */
import { importOptional, type OptionalPackage } from '../optional-import.ts';
import { VERSION } from '../version.ts';
import type { TracerProviderLike } from './span-like.ts';

/** The packages `--otel` loads. */
export const OTLP_EXPORT: OptionalPackage = Object.freeze({
  name: '@opentelemetry/exporter-trace-otlp-http',
  neededFor: 'exporting traces (--otel)',
  with: Object.freeze([
    '@opentelemetry/api',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/resources',
    '@opentelemetry/context-async-hooks',
  ]),
  install:
    'npm install @opentelemetry/api@1.9 @opentelemetry/sdk-trace-base@2 @opentelemetry/resources@2 @opentelemetry/context-async-hooks@2 @opentelemetry/exporter-trace-otlp-http@0.223',
  without: 'or leave out --otel',
});

/** The service name spans are exported under when `OTEL_SERVICE_NAME` does not name one. */
export const DEFAULT_SERVICE_NAME = 'switchyard';

/** A tracer provider that exports over OTLP/HTTP, and how to flush it before the process exits. */
export interface OtlpTracing {
  readonly provider: TracerProviderLike;
  /** Exports the spans not sent yet and stops the exporter; never rejects (an unreachable collector is not the run's failure). */
  shutdown(): Promise<{ readonly error?: unknown }>;
}

/**
 * Loads the SDK and makes a provider exporting in batches over OTLP/HTTP (JSON), registered as the global
 * provider with an `AsyncLocalStorage` context manager, so that the spans of instrumented libraries the
 * nodes use nest under their placement's span.
 */
export async function otlpTracing(serviceName = DEFAULT_SERVICE_NAME): Promise<OtlpTracing> {
  const [api, sdk, exporterModule, resources, hooks] = await importOptional(OTLP_EXPORT, () =>
    Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/context-async-hooks'),
    ]),
  );
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': serviceName, 'service.version': VERSION }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const exporter = new exporterModule.OTLPTraceExporter();
  const provider = new sdk.BasicTracerProvider({
    resource,
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
  const manager = new hooks.AsyncLocalStorageContextManager().enable();
  api.context.setGlobalContextManager(manager);
  api.trace.setGlobalTracerProvider(provider);
  return {
    provider,
    async shutdown() {
      try {
        await provider.shutdown();
        return {};
      } catch (error) {
        return { error };
      }
    },
  };
}
