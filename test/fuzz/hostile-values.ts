/**
 * The hostile values the mutators put into documents: prototype names and pointers into prototypes, numbers
 * no count should be, values of the wrong type, and text no name should hold.
 */
import { INVALID_BYTES } from './tree.ts';

/** Names that plain objects inherit, or that reach the prototype when used as a key. */
export const PROTO_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'prototype',
  'isPrototypeOf',
  '__defineGetter__',
] as const;

/** JSON pointers that walk into a prototype when read or written through plain objects. */
export const PROTO_POINTERS = [
  '/__proto__',
  '/__proto__/polluted',
  '/constructor/prototype',
  '/constructor/prototype/polluted',
  '/constructor',
  '/prototype',
  '/toString',
  '/hasOwnProperty',
  '/a/__proto__/polluted',
  '/queries/__proto__',
  '/0/constructor/prototype/polluted',
  '',
  '/',
] as const;

/** Scalars that put a number where it should not be: too big, unsafe, negative zero, fractions. */
export const ODD_NUMBERS = [
  '1e308',
  '1.7976931348623157e308',
  '9007199254740993',
  '123456789012345678901234567890',
  '1e400',
  '-0',
  '-1',
  '0.5',
  '5e-324',
  '4294967296',
  '2147483648',
] as const;

/** Values of the wrong type for wherever they land. */
export const WRONG_VALUES = [
  '"x"',
  '""',
  '42',
  'true',
  'null',
  '{}',
  '[]',
  '{"@id":"urn:x"}',
  '[[]]',
  '{"@value":"2"}',
];

/** Hostile text for names, labels, keys and IRIs; {@link INVALID_BYTES} marks bytes that are not UTF-8. */
export const HOSTILE_TEXT = [
  'a\u0000b',
  '\u001b[31mred\u001b[0m',
  'line\nbreak',
  '\ud800',
  `bad${INVALID_BYTES}bytes`,
  '%%{init: {"theme": "forest"}}%%',
  '"]; click a call alert(1); x["',
  '<script>alert(1)</script>',
  '`$' + '{x}`',
  'x'.repeat(100_000),
  '🚂'.repeat(1_000),
  ' ',
  '',
] as const;
