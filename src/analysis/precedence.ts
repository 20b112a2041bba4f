import type jsep from 'jsep';

type Node = jsep.Expression;

/** Binary operators expr-lang binds tighter than its unary `-`, `+`, `!` and `not`. */
const TIGHTER_THAN_UNARY = new Set(['**', '^', '??']);

/** Marks a parenthesised expression, so `(-2) ** 2` keeps its grouping while `-2 ** 2` is regrouped. */
export const GROUPED = 'grouped';

/**
 * jsep binds a unary operator to the token after it, so `-2 ** 2` parses as `(-2) ** 2` and
 * `not result ?? true` as `(not result) ?? true`; expr-lang reads them as `-(2 ** 2)` and
 * `not (result ?? true)`. Rewrites the tree to expr-lang's grouping. Pure.
 */
export function regroup(n: Node): Node {
  const children = Object.fromEntries(
    Object.entries(n).map(([k, v]) => [k, Array.isArray(v) ? v.map(child) : child(v)]),
  ) as Node;
  return lift(children);
}

const child = (v: unknown): unknown => (isNode(v) ? regroup(v) : v);
const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && typeof (v as Node).type === 'string';

function lift(n: Node): Node {
  const left = n.left as Node | undefined;
  if (n.type !== 'BinaryExpression' || !TIGHTER_THAN_UNARY.has(n.operator as string)) return n;
  if (left?.type !== 'UnaryExpression' || left[GROUPED]) return n;
  return { ...left, argument: lift({ ...n, left: left.argument as Node }) };
}
