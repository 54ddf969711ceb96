/** Ages on the command line (`--older-than 30d`): a whole number followed by `d`, `h`, `m` or `s`. */
import { SwitchyardError } from '../../errors.ts';

const UNIT_MS: Readonly<Record<string, number>> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/**
 * The milliseconds an age like `30d`, `12h`, `15m` or `90s` stands for; anything else is one `E_USAGE`
 * line naming the flag.
 * @example
 * parseAge('12h', '--older-than') // 43_200_000
 */
export function parseAge(text: string, flag: string): number {
  const match = /^(\d{1,9})([dhms])$/u.exec(text.trim());
  if (match === null) {
    throw new SwitchyardError(
      'E_USAGE',
      `${flag} ${JSON.stringify(text)} is not an age: give a whole number and a unit, like 30d, 12h, 15m or 90s`,
    );
  }
  return Number(match[1]) * (UNIT_MS[match[2] as string] as number);
}
