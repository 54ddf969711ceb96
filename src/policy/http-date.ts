/**
 * HTTP-dates as RFC 9110 (section 5.6.7) defines them, read exactly: the IMF-fixdate and the two obsolete
 * forms, RFC 850 and asctime. Anything else is not a date.
 */

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const DAY_LONG = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?<month>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '(?<hour>\\d{2}):(?<minute>\\d{2}):(?<second>\\d{2})';

// The grammar is case-sensitive and its spaces are single SP characters, but for asctime's padded day.
/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = new RegExp(`^${DAY}, (?<day>\\d{2}) ${MONTH} (?<year>\\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT` */
const RFC_850 = new RegExp(`^${DAY_LONG}, (?<day>\\d{2})-${MONTH}-(?<yy>\\d{2}) ${TIME} GMT$`);
/** `Sun Nov  6 08:49:37 1994` */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} (?<day>\\d{2}| \\d) ${TIME} (?<year>\\d{4})$`);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The named groups of a match: `month`, `day`, `hour`, `minute`, `second`, and `year` or `yy`. */
type Groups = Readonly<Record<string, string | undefined>>;

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * The instant of a written date in ms since the Unix epoch, or undefined when a field is out of range (a
 * 31 November, an hour 24). A leap second (`23:59:60`) is the instant after `23:59:59`, as POSIX time
 * counts it.
 */
function instant(groups: Groups, year: number): number | undefined {
  const month = MONTHS.indexOf(groups.month ?? '');
  const [day, hour, minute, second] = [groups.day, groups.hour, groups.minute, groups.second].map(Number);
  const days = month === 1 && isLeap(year) ? 29 : DAYS_IN_MONTH[month];
  if (days === undefined || day === undefined || hour === undefined || minute === undefined) return undefined;
  if (second === undefined || day < 1 || day > days || hour > 23 || minute > 59 || second > 60)
    return undefined;
  const at = new Date(0);
  // setUTCFullYear keeps the years 0–99 as written, where Date.UTC would move them to 1900–1999.
  at.setUTCFullYear(year, month, day);
  at.setUTCHours(hour, minute, second, 0);
  return at.getTime();
}

/**
 * The full year of an RFC 850 two-digit year, read against `wallNowMs`: the year with those last digits
 * whose date is at most 50 years after `wallNowMs`, the latest such (RFC 9110: a date that appears to be
 * more than 50 years in the future is in the most recent year in the past with the same last two digits).
 */
function fullYear(groups: Groups, wallNowMs: number): number {
  const parsed = new Date(wallNowMs);
  const now = Number.isNaN(parsed.getTime()) ? new Date(0) : parsed;
  const limit = new Date(now.getTime());
  limit.setUTCFullYear(now.getUTCFullYear() + 50);
  let year = Math.floor(now.getUTCFullYear() / 100) * 100 + Number(groups.yy);
  const after = (candidate: number) => (instant(groups, candidate) ?? 0) > limit.getTime();
  if (after(year)) year -= 100;
  else if (!after(year + 100)) year += 100;
  return year;
}

/**
 * Reads an HTTP-date in one of the three forms of RFC 9110, exactly as written there (case, single spaces,
 * `GMT`), and returns its instant in ms since the Unix epoch; undefined for anything else, and for a date
 * whose fields are out of range. The weekday is checked for its form, not against the date. An RFC 850
 * two-digit year is read against `wallNowMs` (ms since the Unix epoch).
 *
 * @example
 * parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT', Date.now()); // 784111777000
 * parseHttpDate('Sun Nov 06 1994 08:49:37 GMT', Date.now()); // undefined (JavaScript's Date#toString form)
 */
export function parseHttpDate(text: string, wallNowMs: number): number | undefined {
  const fixed = IMF_FIXDATE.exec(text)?.groups ?? ASCTIME.exec(text)?.groups;
  if (fixed !== undefined) return instant(fixed, Number(fixed.year));
  const obsolete = RFC_850.exec(text)?.groups;
  return obsolete === undefined ? undefined : instant(obsolete, fullYear(obsolete, wallNowMs));
}
