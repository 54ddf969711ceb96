/**
 * How the property tests are sized and seeded from the environment: `PROPERTY_RUNS` runs per test; the seed
 * fixed in `npm test` so CI is reproducible, `PROPERTY_SEED=random` to draw one, and
 * `PROPERTY_SEED=<seed> PROPERTY_PATH=<path>` to replay a failure as fast-check printed it.
 */
export function propertySettings(defaultRuns: number): {
  readonly runs: number;
  readonly replay: { readonly seed?: number; readonly path?: string; readonly endOnFailure?: boolean };
} {
  const seed = process.env.PROPERTY_SEED ?? '20261201';
  const replay =
    seed === 'random'
      ? {}
      : {
          seed: Number(seed),
          path: process.env.PROPERTY_PATH ?? '',
          endOnFailure: process.env.PROPERTY_PATH !== undefined,
        };
  return { runs: Number(process.env.PROPERTY_RUNS ?? defaultRuns), replay };
}
