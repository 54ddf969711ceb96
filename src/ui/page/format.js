// How times and durations read on the page.

/** Milliseconds as people read them: `240 ms`, `2.0 s`, `3 min 5 s`. */
export function duration(ms) {
  if (ms === undefined || ms === null || Number.isNaN(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** An ISO time as local date and time, to the second. */
export function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.toLocaleDateString()} ${d.toLocaleTimeString()}`;
}

/** The last part of an IRI: `urn:switchyard:dag:review` → `review`. */
export function tail(iri) {
  return String(iri).split(/[:/#]/u).filter(Boolean).pop() ?? String(iri);
}
