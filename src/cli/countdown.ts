/** How the progress says the time left of a wait. */

/** Time left for people, in whole seconds rounded up: `12 s`, `2 min 5 s`, `0 s` once over. */
export function countdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const rest = seconds % 60;
  return `${Math.floor(seconds / 60)} min${rest === 0 ? '' : ` ${rest} s`}`;
}
