import type { VisibilityRecord } from './query.ts';
import {
  type AttributeResolver,
  KIND_LABEL,
  type Kind,
  literalValue,
  type ResolvedAttribute,
  type Scalar,
  textTokens,
} from './query-attributes.ts';
import { VisibilityQueryError } from './query-error.ts';
import type { Expr, OrderKey } from './query-parser.ts';

export type Matcher = (rec: VisibilityRecord) => boolean;
export type Comparator = (a: VisibilityRecord, b: VisibilityRecord) => number;

type Operator = '=' | '!=' | 'range' | 'IN' | 'BETWEEN' | 'STARTS_WITH';

const ALLOWED: Readonly<Record<Kind, readonly Operator[]>> = {
  keyword: ['=', '!=', 'range', 'IN', 'BETWEEN', 'STARTS_WITH'],
  status: ['=', '!=', 'IN'],
  text: ['=', '!='],
  int: ['=', '!=', 'range', 'IN', 'BETWEEN'],
  double: ['=', '!=', 'range', 'IN', 'BETWEEN'],
  bool: ['=', '!='],
  datetime: ['=', '!=', 'range', 'IN', 'BETWEEN'],
  keywordList: ['=', '!=', 'IN'],
};

function checkOperator(attr: ResolvedAttribute, op: Operator, display: string): void {
  if (!ALLOWED[attr.kind].includes(op)) {
    throw new VisibilityQueryError(
      `operator ${display} is not supported for ${KIND_LABEL[attr.kind]} search attribute '${attr.name}'`,
    );
  }
}

function compareScalars(a: Scalar, b: Scalar): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Builds a matcher with SQL-like NULL semantics: an absent attribute never satisfies a comparison (including
 * the negated forms). For multi-valued attributes (KeywordList, or any attribute holding an array) the
 * positive form holds when any element satisfies it and the negated form when no element does.
 */
function predicate(attr: ResolvedAttribute, test: (v: Scalar) => boolean, negated: boolean): Matcher {
  return (rec) => {
    const values = attr.read(rec);
    if (values === null) return false;
    return values.some(test) !== negated;
  };
}

export function compileFilter(expr: Expr, resolve: AttributeResolver): Matcher {
  switch (expr.type) {
    case 'and': {
      const parts = expr.operands.map((e) => compileFilter(e, resolve));
      return (rec) => parts.every((m) => m(rec));
    }
    case 'or': {
      const parts = expr.operands.map((e) => compileFilter(e, resolve));
      return (rec) => parts.some((m) => m(rec));
    }
    case 'isNull': {
      const attr = resolve(expr.attr);
      return (rec) => (attr.read(rec) === null) !== expr.negated;
    }
    case 'compare': {
      const attr = resolve(expr.attr);
      const { op } = expr;
      const isEquality = op === '=' || op === '!=';
      checkOperator(attr, isEquality ? op : 'range', op);
      const value = literalValue(attr, expr.value);
      if (isEquality) {
        const negated = op === '!=';
        if (attr.kind === 'text') {
          const wanted = new Set(textTokens(value as string));
          return predicate(attr, (v) => textTokens(v as string).some((t) => wanted.has(t)), negated);
        }
        return predicate(attr, (v) => v === value, negated);
      }
      const test: (c: number) => boolean =
        op === '<' ? (c) => c < 0 : op === '<=' ? (c) => c <= 0 : op === '>' ? (c) => c > 0 : (c) => c >= 0;
      return predicate(attr, (v) => test(compareScalars(v, value)), false);
    }
    case 'in': {
      const attr = resolve(expr.attr);
      checkOperator(attr, 'IN', expr.negated ? 'NOT IN' : 'IN');
      const set = new Set(expr.values.map((lit) => literalValue(attr, lit)));
      return predicate(attr, (v) => set.has(v), expr.negated);
    }
    case 'between': {
      const attr = resolve(expr.attr);
      checkOperator(attr, 'BETWEEN', expr.negated ? 'NOT BETWEEN' : 'BETWEEN');
      const low = literalValue(attr, expr.low);
      const high = literalValue(attr, expr.high);
      return predicate(
        attr,
        (v) => compareScalars(v, low) >= 0 && compareScalars(v, high) <= 0,
        expr.negated,
      );
    }
    case 'startsWith': {
      const attr = resolve(expr.attr);
      checkOperator(attr, 'STARTS_WITH', expr.negated ? 'NOT STARTS_WITH' : 'STARTS_WITH');
      const prefix = literalValue(attr, expr.value) as string;
      return predicate(attr, (v) => (v as string).startsWith(prefix), expr.negated);
    }
  }
}

const DEFAULT_ORDER: OrderKey[] = [{ attr: { name: 'StartTime', pos: 0 }, descending: true }];
const TIE_BREAKER: OrderKey = { attr: { name: 'RunId', pos: 0 }, descending: false };

/**
 * Builds the ORDER BY comparator. Without ORDER BY the order is StartTime DESC. RunId ASC is always appended as
 * the final tie-breaker so that the order is total. Absent values sort as if larger than any value (last for ASC,
 * first for DESC, like PostgreSQL), so `CloseTime DESC` lists running workflows first.
 */
export function compileOrder(keys: readonly OrderKey[], resolve: AttributeResolver): Comparator {
  const all = [...(keys.length > 0 ? keys : DEFAULT_ORDER), TIE_BREAKER];
  const compiled = all.map(({ attr: ref, descending }) => {
    const attr = resolve(ref);
    if (attr.kind === 'text' || attr.kind === 'keywordList') {
      throw new VisibilityQueryError(
        `${KIND_LABEL[attr.kind]} search attribute '${attr.name}' cannot be used in ORDER BY`,
      );
    }
    return { attr, sign: descending ? -1 : 1 };
  });
  return (a, b) => {
    for (const { attr, sign } of compiled) {
      const av = attr.read(a)?.[0];
      const bv = attr.read(b)?.[0];
      let c: number;
      if (av === undefined) c = bv === undefined ? 0 : 1;
      else if (bv === undefined) c = -1;
      else c = compareScalars(av, bv);
      if (c !== 0) return c * sign;
    }
    return 0;
  };
}
