/**
 * Where a book comes from and who it is for, as a question asks it: "Russian novels", "translated from
 * Spanish", "African writers", "for a twelve-year-old". Pure; matched against the catalog's `language`,
 * `country` and `audience` fields, which are left out where the fact is not known.
 */
import { wordValue } from './text-match.ts';
import type { Book } from './types.ts';

/** The origin and audience a question asks for; a book must meet each part that is present. */
export interface OriginFilter {
  /** Written in one of these languages, or (when `countries` is also given) by an author of one of them. */
  readonly languages?: readonly string[];
  readonly countries?: readonly string[];
  /** Only the language counts ("translated from Spanish", "German-language"). */
  readonly languageOnly?: boolean;
  readonly audiences?: readonly string[];
}

// adjective → [language, countries]
const PEOPLES: Readonly<Record<string, readonly [string | undefined, readonly string[]]>> = {
  russian: ['Russian', ['Russia']],
  japanese: ['Japanese', ['Japan']],
  french: ['French', ['France']],
  german: ['German', ['Germany', 'Austria']],
  italian: ['Italian', ['Italy']],
  spanish: ['Spanish', ['Spain']],
  portuguese: ['Portuguese', ['Portugal']],
  chinese: ['Chinese', ['China']],
  swedish: ['Swedish', ['Sweden']],
  norwegian: ['Norwegian', ['Norway']],
  polish: ['Polish', ['Poland']],
  dutch: ['Dutch', ['Netherlands']],
  irish: [undefined, ['Ireland']],
  british: [undefined, ['United Kingdom']],
  american: [undefined, ['United States']],
  canadian: [undefined, ['Canada']],
  australian: [undefined, ['Australia']],
  indian: [undefined, ['India']],
  nigerian: [undefined, ['Nigeria']],
  colombian: [undefined, ['Colombia']],
  argentine: [undefined, ['Argentina']],
  argentinian: [undefined, ['Argentina']],
  chilean: [undefined, ['Chile']],
  austrian: [undefined, ['Austria']],
  african: [undefined, ['Nigeria', 'South Africa', 'Kenya', 'Ghana', 'Egypt', 'Senegal', 'Zimbabwe']],
  'south african': [undefined, ['South Africa']],
  'latin american': ['Spanish', ['Colombia', 'Argentina', 'Chile', 'Mexico', 'Peru', 'Brazil']],
};
/** Countries by the names readers use for them: the catalog's names, and a few everyday ones. */
const COUNTRY_NAMES: ReadonlyMap<string, string> = new Map([
  ...[...new Set(Object.values(PEOPLES).flatMap(([, countries]) => countries))].map(
    (c) => [c.toLowerCase(), c] as const,
  ),
  ['england', 'United Kingdom'],
  ['britain', 'United Kingdom'],
  ['great britain', 'United Kingdom'],
  ['scotland', 'United Kingdom'],
  ['wales', 'United Kingdom'],
  ['the uk', 'United Kingdom'],
  ['america', 'United States'],
  ['the us', 'United States'],
  ['the usa', 'United States'],
]);
const LANGUAGE_ONLY =
  /\b(?:translated from|(?:written |originally )?in|from the) (\w+)\b|\b(\w+)[- ]language\b/gi;
/** A kind of writing after a nationality, within two words: "a french novel", "russian 19th-century literature". */
const BOOK_KIND = String.raw`(?:[\s-]+[\w-]+){0,2}?[\s-]+(?:novels?|novelists?|books?|fiction|literature|writers?|authors?|poets?|poetry|poems?|plays?|playwrights?|drama|classics?|stories|philosophy|philosophers?|memoirs?|thrillers?|myster(?:y|ies)|crime|essays?|writing)\b`;
const AGE = /\b(?:for )?(?:a |my |an )?(\d{1,2}|[a-z]+)[- ]year[- ]old\b|\baged? (\d{1,2})\b/i;

/** A reader in the teens: "for a teenager", "for teens", "young adult", "YA". */
const TEEN =
  /\bfor (?:a |my |an |our )?(?:teen(?:ager)?s?|adolescents?|young adults?)\b|\byoung[- ]adult (?:books?|novels?|fiction|readers?)\b|\bYA\b/;
/** A child reader of no stated age: "for kids", "for my children", "for young readers". */
const KIDS =
  /\bfor (?:a |my |our |the )?(?:kids?|child|children|young readers|little ones)\b|\bchildren'?s (?:books?|novels?|stories|classics?)\b/i;

/** The audiences fitting a reader of `age`. */
export function audiencesFor(age: number): string[] {
  if (age <= 5) return ['young children'];
  if (age <= 8) return ['young children', 'children'];
  if (age <= 12) return ['children'];
  return ['young adult'];
}

/** A people's name as a question may write it, compiled on first use. */
interface PeoplePattern {
  readonly name: string;
  /** The name capitalised, anywhere. */
  readonly capitalised: RegExp;
  /** The name in any case, before a kind of writing. */
  readonly beforeKind: RegExp;
}

/** Every people's name, longer names first ("South African" before "African"). */
let peopleNames: readonly string[] | undefined;
/** Any people's name in any case: most questions name none, and are then read with this one pattern. */
let anyPeople: RegExp | undefined;
const peopleTable = new Map<string, PeoplePattern>();
let countryTable: readonly { readonly pattern: RegExp; readonly country: string }[] | undefined;

/** The patterns of the peoples `text` names in some case, longer names first. */
function peoplePatterns(text: string): PeoplePattern[] {
  peopleNames ??= Object.keys(PEOPLES).sort((a, b) => b.length - a.length);
  anyPeople ??= new RegExp(`\\b(?:${peopleNames.join('|')})\\b`, 'i');
  if (!anyPeople.test(text)) return [];
  const lower = text.toLowerCase();
  const found: PeoplePattern[] = [];
  for (const name of peopleNames) {
    if (!lower.includes(name)) continue;
    let pattern = peopleTable.get(name);
    if (pattern === undefined) {
      pattern = {
        name,
        capitalised: new RegExp(`\\b${name.replace(/\b\w/g, (c) => c.toUpperCase())}\\b`),
        beforeKind: new RegExp(`\\b${name}\\b(?=${BOOK_KIND})`, 'i'),
      };
      peopleTable.set(name, pattern);
    }
    found.push(pattern);
  }
  return found;
}

/** "from / in / set in" a country, per country name, when `text` has "from" or "in"; compiled on first use. */
function countryPatterns(text: string): readonly { readonly pattern: RegExp; readonly country: string }[] {
  // Most questions have neither word, and need none of the patterns.
  if (!/\b(?:from|in)\s/i.test(text)) return [];
  countryTable ??= [...COUNTRY_NAMES].map(([name, country]) => ({
    pattern: new RegExp(`\\b(?:from|in|set in)\\s+(?:the\\s+)?${name}\\b`, 'i'),
    country,
  }));
  return countryTable;
}

/**
 * Reads the origin and audience `question` asks for, and the question without their words.
 * @example
 * originOf('a Russian novel under 300 pages').filter // { languages: ['Russian'], countries: ['Russia'] }
 */
export function originOf(question: string): { filter: OriginFilter; rest: string } {
  let rest = question;
  const languages = new Set<string>();
  const countries = new Set<string>();
  let languageOnly = false;
  for (const m of question.matchAll(LANGUAGE_ONLY)) {
    const people = PEOPLES[(m[1] ?? m[2] ?? '').toLowerCase()];
    if (people?.[0] === undefined) continue;
    languages.add(people[0]);
    languageOnly = true;
    rest = rest.replace(m[0], ' ');
  }
  if (!languageOnly) {
    for (const { name, capitalised, beforeKind } of peoplePatterns(rest)) {
      // Capitalised only: "french fries" is not French, "a german shepherd"… would be, but rarely asked.
      // In lower case only before what is written: "a french novel", "russian literature".
      const pattern = capitalised.test(rest) ? capitalised : beforeKind.test(rest) ? beforeKind : undefined;
      if (pattern === undefined) continue;
      const [language, from] = PEOPLES[name] ?? [undefined, []];
      if (language) languages.add(language);
      for (const c of from) countries.add(c);
      rest = rest.replace(pattern, ' ');
    }
  }
  // "a thriller from Sweden", "novels set in Japan": the country a book comes from stands in for its setting.
  for (const { pattern, country } of countryPatterns(rest)) {
    if (!pattern.test(rest)) continue;
    countries.add(country);
    rest = rest.replace(pattern, ' ');
  }
  const audiences = new Set<string>();
  const age = rest.match(AGE);
  if (age) {
    const word = (age[1] ?? age[2] ?? '').toLowerCase();
    const years = wordValue(word);
    if (years !== undefined && years < 18) for (const a of audiencesFor(years)) audiences.add(a);
  }
  if (/\bpicture books?\b/i.test(rest)) audiences.add('young children');
  if (TEEN.test(rest)) audiences.add('young adult');
  if (KIDS.test(rest)) audiences.add('children');
  const filter: OriginFilter = {
    ...(languages.size > 0 ? { languages: [...languages] } : {}),
    ...(countries.size > 0 ? { countries: [...countries] } : {}),
    ...(languageOnly ? { languageOnly } : {}),
    ...(audiences.size > 0 ? { audiences: [...audiences] } : {}),
  };
  return { filter, rest: rest.replace(/\s+/g, ' ').trim() };
}

/** Whether `book` meets `filter`; a book whose fact is not known does not. */
export function fromOrigin(book: Book, filter: OriginFilter): boolean {
  if (filter.audiences && !(book.audience !== undefined && filter.audiences.includes(book.audience)))
    return false;
  const byLanguage = filter.languages?.includes(book.language ?? '') ?? false;
  const byCountry = filter.countries?.includes(book.country ?? '') ?? false;
  if (filter.languageOnly) return byLanguage;
  if (filter.languages || filter.countries) return byLanguage || byCountry;
  return true;
}
