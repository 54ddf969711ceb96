/**
 * The length of a string in Unicode code points, as JSON Schema counts `minLength` and `maxLength`: a
 * surrogate pair is one character. The generated validators call it in place of Ajv's runtime helper, so
 * validating needs no part of Ajv at run time.
 * @example
 * ucs2length('a😀') // 2
 */
export function ucs2length(text: string): number {
  let length = 0;
  let pos = 0;
  while (pos < text.length) {
    length++;
    const code = text.charCodeAt(pos++);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && pos < text.length && (text.charCodeAt(pos) & 0xfc00) === 0xdc00) {
      pos++;
    }
  }
  return length;
}
