import { VisibilityQueryError } from './query-error.ts';
import { type Token, tokenize } from './query-lexer.ts';

/** Syntax tree of a List Filter. Values are raw literals; typing happens in the evaluator. */

export type Literal =
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'number'; value: number; raw: string; pos: number }
  | { kind: 'bool'; value: boolean; pos: number };

export interface AttrRef {
  name: string;
  pos: number;
}

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type Expr =
  | { type: 'and' | 'or'; operands: Expr[] }
  | { type: 'compare'; attr: AttrRef; op: CompareOp; value: Literal }
  | { type: 'in'; attr: AttrRef; negated: boolean; values: Literal[] }
  | { type: 'between'; attr: AttrRef; negated: boolean; low: Literal; high: Literal }
  | { type: 'startsWith'; attr: AttrRef; negated: boolean; value: Literal }
  | { type: 'isNull'; attr: AttrRef; negated: boolean };

export interface OrderKey {
  attr: AttrRef;
  descending: boolean;
}

export interface ParsedQuery {
  /** Undefined when the query has no filter part (empty, or only ORDER BY). */
  where: Expr | undefined;
  orderBy: OrderKey[];
}

/** Bare words that cannot be used as attribute names without backquotes. */
const RESERVED = new Set([
  'AND',
  'OR',
  'NOT',
  'IN',
  'BETWEEN',
  'IS',
  'NULL',
  'STARTS_WITH',
  'ORDER',
  'BY',
  'ASC',
  'DESC',
  'TRUE',
  'FALSE',
]);

export function parseQuery(input: string): ParsedQuery {
  return new Parser(tokenize(input)).parseQuery();
}

function describe(t: Token): string {
  switch (t.type) {
    case 'eof':
      return 'end of query';
    case 'string':
      return `string '${t.text}' at position ${t.pos}`;
    case 'ident':
      return `\`${t.text}\` at position ${t.pos}`;
    default:
      return `'${t.text}' at position ${t.pos}`;
  }
}

class Parser {
  private readonly tokens: Token[];
  private index = 0;

  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  parseQuery(): ParsedQuery {
    let where: Expr | undefined;
    if (this.peek().type !== 'eof' && !this.isKeyword('ORDER')) where = this.parseOr();
    const orderBy: OrderKey[] = [];
    if (this.acceptKeyword('ORDER')) {
      this.expectKeyword('BY');
      do {
        const attr = this.parseAttr();
        let descending = false;
        if (this.acceptKeyword('DESC')) descending = true;
        else this.acceptKeyword('ASC');
        orderBy.push({ attr, descending });
      } while (this.accept('comma'));
      if (this.peek().type !== 'eof') this.fail("',', ASC, DESC or end of query");
    } else if (this.peek().type !== 'eof') {
      this.fail('AND, OR, ORDER BY or end of query');
    }
    return { where, orderBy };
  }

  private parseOr(): Expr {
    const operands = [this.parseAnd()];
    while (this.acceptKeyword('OR')) operands.push(this.parseAnd());
    return operands.length === 1 ? operands[0]! : { type: 'or', operands };
  }

  private parseAnd(): Expr {
    const operands = [this.parsePrimary()];
    while (this.acceptKeyword('AND')) operands.push(this.parsePrimary());
    return operands.length === 1 ? operands[0]! : { type: 'and', operands };
  }

  private parsePrimary(): Expr {
    if (this.accept('lparen')) {
      const inner = this.parseOr();
      if (!this.accept('rparen')) this.fail("')'");
      return inner;
    }
    if (this.isKeyword('NOT')) {
      throw new VisibilityQueryError(
        `unary NOT at position ${this.peek().pos} is not supported; use !=, NOT IN, NOT BETWEEN, NOT STARTS_WITH or IS NOT NULL`,
      );
    }
    return this.parsePredicate();
  }

  private parsePredicate(): Expr {
    const attr = this.parseAttr();
    const t = this.peek();
    if (t.type === 'op') {
      this.next();
      return { type: 'compare', attr, op: t.text as CompareOp, value: this.parseValue() };
    }
    if (this.acceptKeyword('IS')) {
      const negated = this.acceptKeyword('NOT');
      this.expectKeyword('NULL');
      return { type: 'isNull', attr, negated };
    }
    const negated = this.acceptKeyword('NOT');
    if (this.acceptKeyword('IN')) {
      if (!this.accept('lparen')) this.fail("'(' after IN");
      const values = [this.parseValue()];
      while (this.accept('comma')) values.push(this.parseValue());
      if (!this.accept('rparen')) this.fail("',' or ')' in IN list");
      return { type: 'in', attr, negated, values };
    }
    if (this.acceptKeyword('BETWEEN')) {
      const low = this.parseValue();
      this.expectKeyword('AND');
      const high = this.parseValue();
      return { type: 'between', attr, negated, low, high };
    }
    if (this.acceptKeyword('STARTS_WITH')) {
      return { type: 'startsWith', attr, negated, value: this.parseValue() };
    }
    return this.fail(
      negated
        ? `IN, BETWEEN or STARTS_WITH after NOT`
        : `an operator (=, !=, <, <=, >, >=, IN, NOT IN, BETWEEN, NOT BETWEEN, STARTS_WITH, IS NULL) after '${attr.name}'`,
    );
  }

  private parseAttr(): AttrRef {
    const t = this.peek();
    if (t.type === 'ident' || (t.type === 'word' && !RESERVED.has(t.text.toUpperCase()))) {
      this.next();
      return { name: t.text, pos: t.pos };
    }
    if (t.type === 'word') {
      return this.fail(`a search attribute name (backquote '${t.text}' to use it as a name)`);
    }
    return this.fail('a search attribute name');
  }

  private parseValue(): Literal {
    const t = this.peek();
    if (t.type === 'string') {
      this.next();
      return { kind: 'string', value: t.text, pos: t.pos };
    }
    if (t.type === 'number') {
      this.next();
      return { kind: 'number', value: Number(t.text), raw: t.text, pos: t.pos };
    }
    if (t.type === 'word') {
      const upper = t.text.toUpperCase();
      if (upper === 'TRUE' || upper === 'FALSE') {
        this.next();
        return { kind: 'bool', value: upper === 'TRUE', pos: t.pos };
      }
      if (upper === 'NULL') {
        throw new VisibilityQueryError(`NULL at position ${t.pos} can only be used as IS NULL / IS NOT NULL`);
      }
    }
    if (t.type === 'word' || t.type === 'ident') {
      throw new VisibilityQueryError(
        `expected a value at position ${t.pos} but found name '${t.text}'; string values must be quoted`,
      );
    }
    return this.fail('a value (quoted string, number, true or false)');
  }

  private peek(): Token {
    return this.tokens[Math.min(this.index, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') this.index++;
    return t;
  }

  private accept(type: Token['type']): boolean {
    if (this.peek().type !== type) return false;
    this.next();
    return true;
  }

  private isKeyword(keyword: string): boolean {
    const t = this.peek();
    return t.type === 'word' && t.text.toUpperCase() === keyword;
  }

  private acceptKeyword(keyword: string): boolean {
    if (!this.isKeyword(keyword)) return false;
    this.next();
    return true;
  }

  private expectKeyword(keyword: string): void {
    if (!this.acceptKeyword(keyword)) this.fail(keyword);
  }

  private fail(expected: string): never {
    throw new VisibilityQueryError(`syntax error: unexpected ${describe(this.peek())}; expected ${expected}`);
  }
}
