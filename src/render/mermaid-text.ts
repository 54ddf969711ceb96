/**
 * The text transforms every Mermaid line goes through: keys into safe node ids, and free text into label
 * or comment text that no character can break out of, and in which no Mermaid directive can be formed.
 */

/**
 * Turns a path of placement keys (outer embed first) into a Mermaid node id.
 * Letters and digits pass through, `_` doubles, any other character becomes `_<hex code>_`, and the parts
 * join with `_s`: the mapping is injective, and the `n_` prefix keeps ids clear of Mermaid keywords
 * (`end`, `graph`, `style`, `class`, …) and of edge syntax (`--o`, `--x`).
 * @example
 * mermaidId(['gave-up']) // 'n_gave_2d_up'
 */
export function mermaidId(path: readonly string[], prefix = 'n'): string {
  return `${prefix}_${path.map(encodeKey).join('_s')}`;
}

function encodeKey(key: string): string {
  let out = '';
  for (const char of key) {
    if (/^[A-Za-z0-9]$/.test(char)) {
      out += char;
    } else if (char === '_') {
      out += '__';
    } else {
      out += `_${(char.codePointAt(0) ?? 0).toString(16)}_`;
    }
  }
  return out;
}

// Characters that end a quoted label, open markup or an entity, or start Markdown.
const UNSAFE = /["<>#;&`|\\[\]{}()*_~]/gu;

/**
 * Escapes text for a double-quoted, multi-line node label: unsafe characters become Mermaid entity codes
 * (`#quot;`, `#lt;`, `#35;`, …), which Mermaid decodes in node labels; line breaks become spaces.
 * @example
 * escapeNodeLabel('a "b" <c>') // 'a #quot;b#quot; #lt;c#gt;'
 */
export function escapeNodeLabel(text: string): string {
  return text.replace(/\s+/gu, ' ').replace(UNSAFE, (char) => {
    if (char === '"') return '#quot;';
    if (char === '<') return '#lt;';
    if (char === '>') return '#gt;';
    return `#${char.codePointAt(0)};`;
  });
}

/**
 * Escapes text for a double-quoted edge label or subgraph title.
 * Mermaid decodes only `#lt;`, `#gt;` and `#amp;` there (plain SVG text), so those carry `<`, `>` and `&`;
 * a `"` cannot be carried at all and becomes `'`; a `#` gets a zero-width space after it so that `#x;` in
 * the text is not read as an entity; a `%` gets one too, because Mermaid obeys `%%{…}%%` directives found
 * anywhere in the text, before it parses a single line; a leading backtick gets one before it so the label
 * is not Markdown.
 * @example
 * escapeEdgeLabel('a "b" <c>') // "a 'b' #lt;c#gt;"
 */
export function escapeEdgeLabel(text: string): string {
  const escaped = text.replace(/\s+/gu, ' ').replace(/["<>&#%]/gu, (char) => {
    if (char === '"') return "'";
    if (char === '<') return '#lt;';
    if (char === '>') return '#gt;';
    if (char === '&') return '#amp;';
    return `${char}\u200B`;
  });
  return escaped.startsWith('`') ? `\u200B${escaped}` : escaped;
}

/**
 * Escapes text for a `%%` comment line: one line, and every `%` followed by a zero-width space, so that the
 * text can neither end the comment nor form a `%%{…}%%` directive, which Mermaid obeys even inside a comment.
 * @example
 * escapeComment('x %%{init: {}}%%') // 'x %\u200B%\u200B{init: {}}%\u200B%\u200B'
 */
export function escapeComment(text: string): string {
  return text.replace(/\s+/gu, ' ').replaceAll('%', '%\u200B');
}

/** Joins label lines (each already escaped) with Mermaid's line break. */
export function labelLines(lines: readonly string[]): string {
  return lines.join('<br/>');
}
