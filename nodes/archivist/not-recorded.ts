/**
 * What a reader may ask of books that the catalog does not record: an author's gender or background, ratings
 * and sales, awards, formats, prices, loans, film adaptations, publishers. The answer says so instead of
 * pretending ("a book by a woman" is not "The Woman in White"). A question that asks only for books by a
 * kind of author gets no list; one that asks for a quality the catalog lacks ("award-winning fantasy") gets
 * the books of its topic with that said. Pure.
 */

/** An attribute the catalog does not record, as a question asks for it. */
export interface NotRecorded {
  /** What the catalog lacks, in words ("an author's gender"). */
  readonly what: string;
  /** True when it picks the books (by whom they are written): no list can stand in for it. */
  readonly hard: boolean;
}

const KINDS_OF_AUTHOR = '(?:authors?|writers?|novelists?|poets?|playwrights?|people|voices)';

const RULES: readonly (NotRecorded & { readonly pattern: RegExp })[] = [
  {
    what: "an author's gender",
    hard: true,
    pattern: new RegExp(
      String.raw`\b(?:by|from|written by|authored by)\s+(?:an?\s+)?(?:[a-z-]+\s+)?(?:women|woman|female|females|male|males|men|man|lady|ladies)\b|\b(?:female|women|woman|male|men|lady|ladies)\s+${KINDS_OF_AUTHOR}\b`,
      'i',
    ),
  },
  {
    what: "an author's background, faith or identity",
    hard: true,
    pattern: new RegExp(
      String.raw`\b(?:black|white|asian|latin[oax]|hispanic|indigenous|native american|jewish|muslim|christian|hindu|queer|gay|lesbian|lgbtq?\+?|trans(?:gender)?|non-?binary|disabled|neurodivergent|autistic)\s+${KINDS_OF_AUTHOR}\b|\bby (?:an? )?(?:black|asian|latin[oax]|hispanic|indigenous|jewish|muslim|queer|gay|lesbian|trans(?:gender)?|disabled) (?:author|writer|person|woman|man)\b`,
      'i',
    ),
  },
  {
    what: 'ratings, sales or popularity',
    hard: false,
    pattern:
      /\b(?:best[- ]?sell(?:ers?|ing)|most popular|most read|highly rated|top[- ]rated|best[- ]rated|highest[- ]rated|five[- ]star|5[- ]star|(?:goodreads|amazon) (?:ratings?|reviews?)|trending)\b/i,
  },
  {
    what: 'awards',
    hard: false,
    pattern:
      /\b(?:award[- ]winning|prize[- ]winning|won (?:the |a |an )?(?:\w+ )?(?:prize|award)|pulitzer|booker|nobel(?: prize)?|hugo award|nebula award|national book award|newbery|carnegie medal)\b/i,
  },
  {
    what: 'formats or editions',
    hard: false,
    pattern:
      /\b(?:audio ?books?|e-?books?|kindle|paperbacks?|hardcovers?|hardbacks?|large[- ]print|braille|pdf|epub)\b/i,
  },
  {
    what: 'prices',
    hard: false,
    pattern:
      /\b(?:cheap(?:est)?|inexpensive|how much (?:is|does|do|are|would)\b[^?.]*\bcosts?|what(?:'s| is) the price|price of|under \$\s?\d+|for free)\b|\$\s?\d+/i,
  },
  {
    what: 'loans or what is on the shelf',
    hard: false,
    pattern:
      /\b(?:in stock|available (?:to borrow|now|today)|borrow|check (?:it |them )?out|on loan|due back|reserve (?:it|one|a copy)|place a hold)\b/i,
  },
  {
    what: 'film or television adaptations',
    hard: false,
    pattern:
      /\b(?:made into (?:a )?(?:films?|movies?|tv|series)|(?:film|movie|tv|screen) adaptations?|adapted (?:into|for) (?:a )?(?:films?|movies?|tv|the screen))\b/i,
  },
  {
    what: 'publishers, translators or ISBNs',
    hard: false,
    pattern: /\b(?:isbn|publishers?|published by \p{Lu}|translated by|translators?|imprint)\b/iu,
  },
  {
    what: 'reading levels',
    hard: false,
    pattern: /\b(?:lexile|reading level|grade level|reading age)\b/i,
  },
];

/**
 * What `question` asks for that the catalog does not record, if anything.
 * @example
 * notRecordedIn('a book by a woman') // { what: "an author's gender", hard: true }
 */
export function notRecordedIn(question: string): NotRecorded | undefined {
  const rule = RULES.find((r) => r.pattern.test(question));
  return rule === undefined ? undefined : { what: rule.what, hard: rule.hard };
}

/** The sentence that says so: a hard one stands alone, a soft one comes before the books of the topic. */
export function notRecordedSentence(missing: NotRecorded): string {
  return missing.hard
    ? `The catalog does not record ${missing.what}, so I cannot choose books by it. Ask me for an author by name, a title or a subject, and I will find the books.`
    : `The catalog does not record ${missing.what}.`;
}
