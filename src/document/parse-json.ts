/**
 * Strict JSON parsing with positions: syntax errors become `E_JSON_SYNTAX` problems with line and column,
 * and JSON pointers into the parsed text can be mapped back to where they are written.
 */
import { type Node, type ParseError, parse, parseTree, printParseErrorCode } from 'jsonc-parser';
import { type Problem, problem } from '../errors.ts';
import { clip, firstTooDeep, MAX_DOCUMENT_DEPTH } from './limits.ts';
import { loneSurrogateIn } from './lone-surrogate.ts';
import { offsetOf } from './scan-pointer.ts';

/** A 1-based position in a text. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** Maps an RFC 6901 pointer to where it is written, or undefined when the text has no such location. */
export type Locate = (pointer: string) => Position | undefined;

/** The outcome of {@link parseJson}: the value (undefined when the text is not JSON) and every syntax problem. */
export interface ParsedJson {
  readonly value: unknown;
  readonly problems: readonly Problem[];
  readonly locate: Locate;
}

// Keyed by jsonc-parser's error names: its error codes are a const enum, which verbatimModuleSyntax cannot import.
const HINTS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'this is not a JSON token — quote strings with double quotes',
  InvalidNumberFormat: 'malformed number — write digits, an optional fraction and exponent',
  PropertyNameExpected:
    'a property name is expected — quote it with double quotes, or remove a trailing comma',
  ValueExpected: 'a value is expected — remove a trailing comma or add the missing value',
  ColonExpected: "a ':' is expected after the property name",
  CommaExpected: "a ',' is expected between items",
  CloseBraceExpected: "a '}' is expected — close the object",
  CloseBracketExpected: "a ']' is expected — close the array",
  EndOfFileExpected: 'text after the end of the document — a file holds exactly one JSON value',
  InvalidCommentToken: 'JSON has no comments — remove it',
  UnexpectedEndOfComment: 'JSON has no comments — remove it',
  UnexpectedEndOfString: 'the string is not closed — add the closing double quote',
  UnexpectedEndOfNumber: 'the number is cut short — complete it',
  InvalidUnicode: 'invalid \\u escape — write four hex digits',
  InvalidEscapeCharacter: 'invalid escape — use \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX',
  InvalidCharacter: 'control characters must be escaped inside strings',
};

/** The line/column of every offset of `text`, through a table of line starts. */
function positionsOf(text: string): (offset: number) => Position {
  // Line starts are found on the first lookup: a document without problems never needs them.
  let starts: number[] | undefined;
  return (offset) => {
    if (starts === undefined) {
      starts = [0];
      for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) === 10) starts.push(i + 1);
      }
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
  };
}

/** Splits an RFC 6901 pointer into its segments ('' is the whole document). */
function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The node of the value at `segments`. Where an object writes a name twice, the last one is taken, as
 * `JSON.parse` does, so a pointer shows the value that is used.
 */
function valueAt(tree: Node, segments: readonly string[]): Node | undefined {
  let node = tree;
  for (const segment of segments) {
    const children = node.children ?? [];
    let next: Node | undefined;
    if (node.type === 'object') {
      for (let i = children.length - 1; i >= 0 && next === undefined; i--) {
        const [name, value] = children[i]?.children ?? [];
        if (name?.value === segment && value) next = value;
      }
    } else if (node.type === 'array' && /^(0|[1-9][0-9]*)$/.test(segment)) {
      next = children[Number(segment)];
    }
    if (next === undefined) return undefined;
    node = next;
  }
  return node;
}

/** Lookups a {@link Locate} answers by scanning the text before it builds the text's tree once for the rest. */
const SCANS_BEFORE_TREE = 4;

/**
 * Builds a {@link Locate} for `text`; a pointer to a property points at the property's name. For a text
 * known to be JSON (`valid`), the first lookups scan the text along the pointer, which is much cheaper than
 * building its tree when only a problem or two is shown; later ones use the tree.
 */
export function locator(text: string, valid = false): Locate {
  let tree: Node | undefined;
  let parsed = false;
  let scans = valid ? SCANS_BEFORE_TREE : 0;
  const position = positionsOf(text);
  return (pointer) => {
    if (scans > 0) {
      scans--;
      const offset = offsetOf(text, pointerSegments(pointer));
      return offset === undefined ? undefined : position(offset);
    }
    if (!parsed) {
      tree = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
      parsed = true;
    }
    if (!tree) return undefined;
    const node = valueAt(tree, pointerSegments(pointer));
    if (!node) return undefined;
    const anchor = node.parent?.type === 'property' ? node.parent : node;
    return position(anchor.offset);
  };
}

/** Options of {@link parseJson}. */
export interface ParseOptions {
  /** Deepest nesting of arrays and objects accepted; default {@link MAX_DOCUMENT_DEPTH}. */
  readonly maxDepth?: number;
}

/**
 * Parses `text` as strict JSON (no comments, no trailing commas); every syntax error is a problem. Text that
 * nests deeper than `maxDepth` is refused with one `E_TOO_DEEP` problem before any parser sees it, so no
 * input can exhaust the stack of the parsers, the schema or the JSON-LD processor downstream.
 *
 * @example
 * ```ts
 * const { value, problems } = parseJson('{"a": 1,}', 'a.json'); // problems[0].code === 'E_JSON_SYNTAX'
 * ```
 */
export function parseJson(text: string, file?: string, options: ParseOptions = {}): ParsedJson {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const maxDepth = options.maxDepth ?? MAX_DOCUMENT_DEPTH;
  const deep = firstTooDeep(source, maxDepth);
  if (deep) {
    const { line, column } = positionsOf(source)(deep.offset);
    const message = `nested more than ${maxDepth} levels deep at ${line}:${column} — a document nests its arrays and objects at most ${maxDepth} deep; flatten the data`;
    return {
      value: undefined,
      problems: [problem('E_TOO_DEEP', message, { line, column, ...(file === undefined ? {} : { file }) })],
      locate: () => undefined,
    };
  }
  // The built-in parser accepts exactly strict JSON and is several times faster; the tolerant parser only
  // runs to describe what is wrong, with positions.
  let value: unknown;
  let parsed = false;
  try {
    value = JSON.parse(source) as unknown;
    parsed = true;
  } catch {
    // described below
  }
  if (parsed) {
    const locate = locator(source, true);
    const surrogate = loneSurrogateIn(source, value);
    if (surrogate === undefined) return { value, problems: [], locate };
    const position = locate(surrogate);
    const at = position === undefined ? '' : ` at ${position.line}:${position.column}`;
    const message = `the string${at} (${surrogate === '' ? 'the document' : clip(surrogate)}) holds a lone UTF-16 surrogate escape (\\uD800–\\uDFFF without its pair), which is not a character — write the character itself or both halves of its pair`;
    return {
      value: undefined,
      problems: [
        problem('E_ENCODING', message, {
          pointer: surrogate,
          ...(position ?? {}),
          ...(file === undefined ? {} : { file }),
        }),
      ],
      locate,
    };
  }
  const errors: ParseError[] = [];
  value = parse(source, errors, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  const position = positionsOf(source);
  const seen = new Set<number>();
  const problems: Problem[] = [];
  for (const error of errors) {
    if (seen.has(error.offset)) continue;
    seen.add(error.offset);
    const { line, column } = position(error.offset);
    const name = printParseErrorCode(error.error);
    const hint = HINTS[name] ?? name;
    problems.push(
      problem('E_JSON_SYNTAX', `invalid JSON at ${line}:${column}: ${hint}`, {
        line,
        column,
        ...(file === undefined ? {} : { file }),
      }),
    );
  }
  return { value: problems.length > 0 ? undefined : value, problems, locate: locator(source) };
}
