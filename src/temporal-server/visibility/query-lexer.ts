import { VisibilityQueryError } from './query-error.ts';

/**
 * Token kinds of the List Filter language.
 * - `word`: bare identifier or keyword (keywords are matched case-insensitively by the parser)
 * - `ident`: backquoted identifier (always an attribute name, never a keyword)
 * - `string`: quoted literal, `text` holds the decoded value
 * - `number`: numeric literal, `text` holds the source spelling
 * - `op`: comparison operator (`<>` is normalised to `!=`)
 */
export type TokenType = 'word' | 'ident' | 'string' | 'number' | 'op' | 'lparen' | 'rparen' | 'comma' | 'eof';

export interface Token {
  type: TokenType;
  text: string;
  /** Zero-based character offset of the token in the query. */
  pos: number;
}

const WORD_START = /[A-Za-z_]/;
const WORD_PART = /[A-Za-z0-9_]/;
const DIGIT = /[0-9]/;
const NUMBER = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '0': '\0', b: '\b' };

export function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input.charAt(i);
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const start = i;
    if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ type: ch === '(' ? 'lparen' : ch === ')' ? 'rparen' : 'comma', text: ch, pos: start });
      i++;
    } else if (ch === "'" || ch === '"') {
      const { value, end } = readQuoted(input, i, ch);
      tokens.push({ type: 'string', text: value, pos: start });
      i = end;
    } else if (ch === '`') {
      const { value, end } = readBackquoted(input, i);
      tokens.push({ type: 'ident', text: value, pos: start });
      i = end;
    } else if (DIGIT.test(ch) || ((ch === '-' || ch === '.') && isNumberStart(input, i))) {
      const match = NUMBER.exec(input.slice(i));
      if (!match) throw new VisibilityQueryError(`invalid number at position ${start}`);
      i += match[0].length;
      if (i < input.length && WORD_PART.test(input.charAt(i))) {
        throw new VisibilityQueryError(`invalid number '${input.slice(start, i + 1)}' at position ${start}`);
      }
      tokens.push({ type: 'number', text: match[0], pos: start });
    } else if (WORD_START.test(ch)) {
      while (i < input.length && WORD_PART.test(input.charAt(i))) i++;
      tokens.push({ type: 'word', text: input.slice(start, i), pos: start });
    } else {
      const two = input.slice(i, i + 2);
      if (two === '!=' || two === '<>' || two === '<=' || two === '>=') {
        tokens.push({ type: 'op', text: two === '<>' ? '!=' : two, pos: start });
        i += 2;
      } else if (ch === '=' || ch === '<' || ch === '>') {
        tokens.push({ type: 'op', text: ch, pos: start });
        i++;
      } else {
        throw new VisibilityQueryError(`unexpected character '${ch}' at position ${start}`);
      }
    }
  }
  tokens.push({ type: 'eof', text: '', pos: input.length });
  return tokens;
}

function isNumberStart(input: string, i: number): boolean {
  const next = input.charAt(i + 1);
  if (input.charAt(i) === '-') return DIGIT.test(next) || (next === '.' && DIGIT.test(input.charAt(i + 2)));
  return DIGIT.test(next);
}

/**
 * Reads a string literal quoted with `quote`. Supports the doubled-quote escape (`'it''s'`) and
 * backslash escapes (`\'`, `\"`, `\\`, `\n`, `\t`, `\r`, `\0`, `\b`; any other `\x` yields `x`).
 */
function readQuoted(input: string, open: number, quote: string): { value: string; end: number } {
  let value = '';
  let i = open + 1;
  while (i < input.length) {
    const ch = input.charAt(i);
    if (ch === '\\') {
      if (i + 1 >= input.length) break;
      const esc = input.charAt(i + 1);
      value += ESCAPES[esc] ?? esc;
      i += 2;
    } else if (ch === quote) {
      if (input.charAt(i + 1) === quote) {
        value += quote;
        i += 2;
      } else {
        return { value, end: i + 1 };
      }
    } else {
      value += ch;
      i++;
    }
  }
  throw new VisibilityQueryError(`unterminated string literal starting at position ${open}`);
}

/** Reads a backquoted attribute name; a doubled backquote stands for a literal backquote. */
function readBackquoted(input: string, open: number): { value: string; end: number } {
  let value = '';
  let i = open + 1;
  while (i < input.length) {
    const ch = input.charAt(i);
    if (ch === '`') {
      if (input.charAt(i + 1) === '`') {
        value += '`';
        i += 2;
        continue;
      }
      if (value === '') throw new VisibilityQueryError(`empty attribute name at position ${open}`);
      return { value, end: i + 1 };
    }
    value += ch;
    i++;
  }
  throw new VisibilityQueryError(`unterminated backquoted name starting at position ${open}`);
}
