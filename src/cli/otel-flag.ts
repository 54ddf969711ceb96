/**
 * `--otel`: a tracer provider exporting over OTLP/HTTP for the commands that run DAGs, loaded only when the
 * flag is given, and flushed before the command ends.
 */
import type { OtlpTracing } from '../telemetry/otlp.ts';
import type { TracerProviderLike } from '../telemetry/span-like.ts';

/** The exporter `--otel` asks for, or undefined without the flag (then nothing is loaded). */
export async function otelFor(flag: boolean | undefined): Promise<OtlpTracing | undefined> {
  if (flag !== true) return undefined;
  const { otlpTracing } = await import('../telemetry/otlp.ts');
  return otlpTracing();
}

/** `{ tracerProvider }` for a dispatcher or worker when `--otel` is on, else nothing. */
export function tracerOption(otel: OtlpTracing | undefined): { tracerProvider?: TracerProviderLike } {
  return otel === undefined ? {} : { tracerProvider: otel.provider };
}

/**
 * Sends the spans not exported yet; a collector that cannot be reached is one line on stderr, not a failure
 * of the command.
 */
export async function flushOtel(otel: OtlpTracing | undefined, err: (line: string) => void): Promise<void> {
  if (otel === undefined) return;
  const { error } = await otel.shutdown();
  if (error === undefined) return;
  const why = error instanceof Error ? error.message : String(error);
  err(`switchyard: --otel: the spans could not all be exported (${why}); check OTEL_EXPORTER_OTLP_ENDPOINT`);
}
