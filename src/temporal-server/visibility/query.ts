import { createResolver } from './query-attributes.ts';
import { compileFilter, compileOrder } from './query-eval.ts';
import { parseQuery } from './query-parser.ts';

/**
 * Temporal visibility List Filter (the SQL-like `query` of ListWorkflowExecutions / CountWorkflowExecutions).
 *
 * Grammar (keywords case-insensitive, attribute names case-sensitive):
 *   query     := [ expr ] [ ORDER BY key [ASC|DESC] { , key [ASC|DESC] } ]
 *   expr      := conj { OR conj }                       -- AND binds tighter than OR
 *   conj      := primary { AND primary }
 *   primary   := ( expr ) | attr predicate
 *   predicate := (= | != | <> | < | <= | > | >=) value
 *              | [NOT] IN ( value { , value } ) | [NOT] BETWEEN value AND value
 *              | [NOT] STARTS_WITH value | IS [NOT] NULL
 *   attr      := Name | `Name`
 *   value     := 'string' | "string" | number | TRUE | FALSE
 */

export { VisibilityQueryError } from './query-error.ts';

export interface VisibilityRecord {
  workflowId: string;
  runId: string;
  workflowType: string;
  /** 'Running' | 'Completed' | 'Failed' | 'Canceled' | 'Terminated' | 'ContinuedAsNew' | 'TimedOut' */
  status: string;
  startTime: Date;
  closeTime?: Date;
  executionTime?: Date;
  taskQueue: string;
  /** Decoded values: string, string[] (KeywordList), number, boolean, Date. */
  searchAttributes: Record<string, unknown>;
}

export interface CompiledQuery {
  matches(rec: VisibilityRecord): boolean;
  /** ORDER BY comparator; default StartTime DESC, then RunId. */
  compare(a: VisibilityRecord, b: VisibilityRecord): number;
}

/**
 * Compiles a List Filter. `attributeTypes` maps custom search attribute names to their IndexedValueType name
 * (e.g. 'INDEXED_VALUE_TYPE_KEYWORD'). Throws VisibilityQueryError for syntax errors, unknown attributes,
 * unsupported operators and values of the wrong type.
 */
export function compileVisibilityQuery(
  query: string,
  attributeTypes: ReadonlyMap<string, string>,
): CompiledQuery {
  const parsed = parseQuery(query);
  const resolve = createResolver(attributeTypes);
  const matches = parsed.where ? compileFilter(parsed.where, resolve) : () => true;
  const compare = compileOrder(parsed.orderBy, resolve);
  return { matches, compare };
}
