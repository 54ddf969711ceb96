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

// The reader's own time zone, named in every time the page shows (`3 Dec 2026, 06:20:05 UTC`).
const STAMP = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

/** An ISO time as the reader's local date and time to the second, with its time zone, as text. */
export function stamp(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : STAMP.format(d);
}

/** An ISO time as a `<time>` element: local date and time with the time zone, the UTC time on hover. */
export function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  const el = document.createElement('time');
  el.dateTime = iso;
  el.title = Number.isNaN(d.getTime()) ? String(iso) : d.toISOString();
  el.textContent = stamp(iso);
  return el;
}

/** The last part of an IRI: `urn:switchyard:dag:review` → `review`. */
export function tail(iri) {
  return String(iri).split(/[:/#]/u).filter(Boolean).pop() ?? String(iri);
}
