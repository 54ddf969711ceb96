/** The median of a non-empty list of samples. */
export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Prints a titled table of rows (label, value, note) aligned in columns. */
export function printTable(title: string, rows: readonly (readonly string[])[]): void {
  const widths = [0, 0, 0];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  process.stdout.write(`\n${title}\n`);
  for (const row of rows) {
    process.stdout.write(
      `  ${row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd()}\n`,
    );
  }
}
