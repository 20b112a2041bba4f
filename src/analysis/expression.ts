import type jsep from 'jsep';
import { BUILTINS, Value } from './builtins';
import { GROUPED, regroup } from './precedence';

/**
 * Conditions in Argo's syntax (expr-lang): parsed by jsep (a parser only: nothing is ever handed to
 * `eval` or `Function`) with expr-lang's word operators and `{# ...}` predicates added, and evaluated
 * here by walking the tree. Only `result`, `#` and the helpers of `builtins.ts` are in scope, member
 * access reads own data properties only, so a condition can read its result and nothing else.
 */
export type Node = jsep.Expression;

let configured: typeof jsep | undefined;
/** jsep with expr-lang's operators; required on first use, so a run without analysis never initialises it. */
function parser(): typeof jsep {
  if (configured) return configured;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const p = require('jsep') as typeof jsep;
  configured = p;
  p.addBinaryOp('or', 1);
  p.addBinaryOp('and', 2);
  // expr-lang binds `??` tightest of all binary operators: `result ?? 0 < 0.05` is `(result ?? 0) < 0.05`.
  p.addBinaryOp('??', 12);
  for (const op of ['in', 'matches', 'contains', 'startsWith', 'endsWith']) p.addBinaryOp(op, 7);
  p.addBinaryOp('**', 11, true);
  p.addBinaryOp('^', 11, true); // expr-lang's other spelling of power, not XOR
  p.addUnaryOp('not');
  p.addIdentifierChar('#');
  // expr-lang predicates: `all(result, {# < 0.1})`.
  p.hooks.add('gobble-token', function (this: jsep.HookScope, env: { node?: Node }) {
    if (this.code === 40) env.node = groupedToken(this); // (
    // expr-lang's member shorthand in a predicate: `{.value > 1}` is `{#.value > 1}`.
    if (this.code === 46 && /[A-Za-z_]/.test(this.expr.charAt(this.index + 1))) env.node = memberOfItem(this);
    if (this.code !== 123) return; // {
    this.index++;
    const body = this.gobbleExpression();
    this.gobbleSpaces();
    if ((this.code as number) !== 125) this.throwError('expected } closing the predicate');
    this.index++;
    env.node = { type: 'Predicate', body } as unknown as Node;
  });
  return p;
}

/** `.field` read as `#.field`, then any further `.x`, `[i]` or call. */
function memberOfItem(scope: jsep.HookScope): Node {
  const parser = scope as unknown as { gobbleTokenProperty(n: Node): Node };
  return parser.gobbleTokenProperty({ type: 'Identifier', name: '#' } as Node);
}

/** A parenthesised expression (then any `.x`, `[i]` or call after it), marked so `regroup` keeps it whole. */
function groupedToken(scope: jsep.HookScope): Node {
  const parser = scope as unknown as { gobbleGroup(): Node; gobbleTokenProperty(n: Node): Node };
  const group = parser.gobbleGroup();
  return parser.gobbleTokenProperty({ ...group, [GROUPED]: true });
}

/** Parses and checks a condition; returns the tree or the reason it is invalid (for a located plan-time error). */
export function compile(source: string): { node: Node } | { error: string } {
  const parse = parser();
  let node: Node;
  try {
    node = regroup(parse(source));
  } catch (e) {
    return { error: (e as Error).message };
  }
  const problem = check(node, false);
  return problem ? { error: problem } : { node };
}

function check(n: Node, inPredicate: boolean): string | undefined {
  switch (n.type) {
    case 'Literal':
    case 'ThisExpression':
      return n.type === 'ThisExpression' ? '`this` is not available' : undefined;
    case 'Identifier':
      if (n.name === 'result' || n.name === 'nil' || n.name === 'true' || n.name === 'false') return undefined;
      if (n.name === '#') return inPredicate ? undefined : '`#` is only available inside a {predicate}';
      return `unknown name "${n.name}"; conditions can use result and ${Object.keys(BUILTINS).join(', ')}`;
    case 'CallExpression': {
      const callee = n.callee as Node;
      const helpers = Object.keys(BUILTINS).join(', ');
      if (callee.type !== 'Identifier') return `only the helper functions can be called: ${helpers}`;
      if (!Object.hasOwn(BUILTINS, callee.name as string))
        return `unknown function "${callee.name}"; available: ${helpers}`;
      return first((n.arguments as Node[]).map((a) => check(a, inPredicate)));
    }
    case 'Predicate':
      return check(n.body as Node, true);
    case 'MemberExpression':
      return first([
        check(n.object as Node, inPredicate),
        n.computed ? check(n.property as Node, inPredicate) : undefined,
      ]);
    case 'UnaryExpression':
      if (!UNARY.has(n.operator as string)) return unavailable(n.operator as string);
      return check(n.argument as Node, inPredicate);
    case 'BinaryExpression':
      if (!BINARY.has(n.operator as string)) return unavailable(n.operator as string);
      return first([check(n.left as Node, inPredicate), check(n.right as Node, inPredicate)]);
    case 'ConditionalExpression':
      return first([n.test, n.consequent, n.alternate].map((c) => check(c as Node, inPredicate)));
    case 'ArrayExpression':
      return first((n.elements as Node[]).map((e) => check(e, inPredicate)));
    default:
      return `unsupported syntax (${n.type})`;
  }
}

/** The operators `evaluate` implements; jsep also parses JavaScript's (`===`, `|`, `<<`, `~`), which expr-lang lacks. */
const BINARY = new Set(
  ['|| or && and ?? == != < > <= >= + - * / % ** ^', 'in matches contains startsWith endsWith'].join(' ').split(' '),
);
const UNARY = new Set(['!', 'not', '-', '+']);
const unavailable = (op: string) =>
  `operator ${op} is not available in conditions; use ${[...BINARY].join(' ')} or unary ! not -`;

const first = (list: (string | undefined)[]): string | undefined => list.find((p) => p !== undefined);

export interface Scope {
  readonly result: Value;
  readonly item?: Value;
}

/** Evaluates a compiled condition; throws an Error with a readable message (the measurement becomes Error). */
export function evaluate(n: Node, scope: Scope): Value {
  switch (n.type) {
    case 'Literal':
      return n.value as Value;
    case 'Identifier':
      return identifier(n.name as string, scope);
    case 'MemberExpression':
      return member(
        evaluate(n.object as Node, scope),
        n.computed ? evaluate(n.property as Node, scope) : ((n.property as Node).name as string),
      );
    case 'CallExpression': {
      const fn = BUILTINS[(n.callee as Node).name as string];
      const args = (n.arguments as Node[]).map((a) =>
        a.type === 'Predicate' ? predicate(a, scope) : evaluate(a, scope),
      );
      return fn(scope.result, ...args);
    }
    case 'UnaryExpression':
      return unary(n.operator as string, evaluate(n.argument as Node, scope));
    case 'BinaryExpression':
      return binary(n, scope);
    case 'ConditionalExpression':
      return truthy(evaluate(n.test as Node, scope))
        ? evaluate(n.consequent as Node, scope)
        : evaluate(n.alternate as Node, scope);
    case 'ArrayExpression':
      return (n.elements as Node[]).map((e) => evaluate(e, scope));
    default:
      throw new Error(`cannot evaluate ${n.type}`);
  }
}

function identifier(name: string, scope: Scope): Value {
  if (name === 'result') return scope.result;
  if (name === '#') return scope.item ?? null;
  if (name === 'true' || name === 'false') return name === 'true';
  return null; // nil
}

function predicate(n: Node, scope: Scope): Value {
  return ((item: Value) => evaluate(n.body as Node, { ...scope, item })) as unknown as Value;
}

function member(object: Value, key: Value): Value {
  if (Array.isArray(object)) {
    if (typeof key !== 'number' || !Number.isInteger(key))
      throw new Error(`cannot index an array with ${JSON.stringify(key)}`);
    const i = key < 0 ? object.length + key : key;
    if (i < 0 || i >= object.length) throw new Error(`index out of range: ${key} (len ${object.length})`);
    return object[i];
  }
  if (object !== null && typeof object === 'object') {
    const k = String(key);
    return Object.prototype.hasOwnProperty.call(object, k) ? (object as Record<string, Value>)[k] : null;
  }
  throw new Error(`cannot fetch ${JSON.stringify(key)} from ${describe(object)}`);
}

function unary(op: string, v: Value): Value {
  if (op === '!' || op === 'not') return !truthy(v);
  if (op === '-' || op === '+') return op === '-' ? -number(v, op) : number(v, op);
  throw new Error(`unknown operator ${op}`);
}

function binary(n: Node, scope: Scope): Value {
  const op = n.operator as string;
  const left = evaluate(n.left as Node, scope);
  if (op === '||' || op === 'or') return truthy(left) || truthy(evaluate(n.right as Node, scope));
  if (op === '&&' || op === 'and') return truthy(left) && truthy(evaluate(n.right as Node, scope));
  if (op === '??') return left ?? evaluate(n.right as Node, scope);
  const right = evaluate(n.right as Node, scope);
  switch (op) {
    case '==':
    case '!=':
      return equal(left, right) === (op === '==');
    case '<':
    case '>':
    case '<=':
    case '>=':
      return compare(op, left, right);
    case '+':
      if (typeof left === 'string' && typeof right === 'string') return left + right;
      return number(left, op) + number(right, op);
    case '-':
      return number(left, op) - number(right, op);
    case '*':
      return number(left, op) * number(right, op);
    case '/':
      return number(left, op) / number(right, op);
    case '%':
      return number(left, op) % number(right, op);
    case '**':
    case '^':
      return number(left, op) ** number(right, op);
    default:
      return stringOp(op, left, right);
  }
}

function stringOp(op: string, left: Value, right: Value): Value {
  if (op === 'in') {
    if (Array.isArray(right)) return right.some((r) => equal(left, r));
    if (right !== null && typeof right === 'object') return Object.prototype.hasOwnProperty.call(right, String(left));
    throw new Error(`operator in not defined on ${describe(right)}`);
  }
  if (typeof left !== 'string' || typeof right !== 'string') throw new Error(`operator ${op} needs two strings`);
  if (op === 'contains') return left.includes(right);
  if (op === 'startsWith') return left.startsWith(right);
  if (op === 'endsWith') return left.endsWith(right);
  if (op === 'matches') return new RegExp(right).test(left);
  throw new Error(`unknown operator ${op}`);
}

function compare(op: string, l: Value, r: Value): boolean {
  const ok = (typeof l === 'number' && typeof r === 'number') || (typeof l === 'string' && typeof r === 'string');
  if (!ok) throw new Error(`invalid operation: ${describe(l)} ${op} ${describe(r)}`);
  const a = l as number | string;
  const b = r as number | string;
  return op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
}

function equal(a: Value, b: Value): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

export function truthy(v: Value): boolean {
  if (typeof v !== 'boolean') throw new Error(`expected bool, but got ${describe(v)}`);
  return v;
}

function number(v: Value, op: string): number {
  if (typeof v !== 'number') throw new Error(`invalid operation: ${op} on ${describe(v)}`);
  return v;
}

export function describe(v: Value): string {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'map' : `${typeof v} ${JSON.stringify(v)}`;
}
