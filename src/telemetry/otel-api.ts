import { importOptional, type OptionalPackage } from '../optional-import.ts';

/** Tracing with OpenTelemetry: the API package, an optional peer dependency. */
export const OPENTELEMETRY_API: OptionalPackage = Object.freeze({
  name: '@opentelemetry/api',
  neededFor: 'tracing with OpenTelemetry',
  without: 'or leave tracing off (no tracerProvider, no --otel)',
});

/** The `@opentelemetry/api` module. */
export type OtelApi = typeof import('@opentelemetry/api');

let loading: Promise<OtelApi> | undefined;

/**
 * Loads `@opentelemetry/api` once per process, when tracing is first switched on; `E_MISSING_PACKAGE` (one
 * line naming the install) when it is not installed.
 */
export function loadOtelApi(): Promise<OtelApi> {
  loading ??= importOptional(OPENTELEMETRY_API, () => import('@opentelemetry/api')).catch(
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
