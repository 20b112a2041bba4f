/** JSON-like values a condition sees; a predicate (`{# > 0}`) arrives as a function. */
export type Value = number | string | boolean | null | undefined | Value[] | { [key: string]: Value };
type Predicate = (item: Value) => Value;
type Builtin = (result: Value, ...args: Value[]) => Value;

/**
 * Argo's helpers (asInt, asFloat, isNaN, isInf, isNil, default) and the expr-lang built-ins users reach
 * for in conditions. Each gets the whole `result` first, because Argo's `isNil` and `default` look at
 * the result itself, whatever their argument.
 */
export const BUILTINS: Readonly<Record<string, Builtin>> = {
  len: (_r, v) => length(v),
  isNaN: (_r, v) => Number.isNaN(num(v, 'isNaN')),
  isInf: (_r, v) => !Number.isFinite(num(v, 'isInf')) && !Number.isNaN(v),
  asInt: (_r, v) => Math.trunc(asFloat(v, 'asInt')),
  asFloat: (_r, v) => asFloat(v, 'asFloat'),
  isNil: (r) => r === null || r === undefined,
  default: (r, _v, fallback) => (r === null || r === undefined ? fallback : r),
  all: (_r, v, p) => list(v, 'all').every((x) => holds(p, x)),
  any: (_r, v, p) => list(v, 'any').some((x) => holds(p, x)),
  none: (_r, v, p) => !list(v, 'none').some((x) => holds(p, x)),
  one: (_r, v, p) => list(v, 'one').filter((x) => holds(p, x)).length === 1,
  filter: (_r, v, p) => list(v, 'filter').filter((x) => holds(p, x)),
  map: (_r, v, p) => list(v, 'map').map((x) => pred(p)(x)),
  count: (_r, v, p) => list(v, 'count').filter((x) => holds(p, x)).length,
  sum: (_r, v) => list(v, 'sum').reduce<number>((s, x) => s + num(x, 'sum'), 0),
  max: (_r, ...v) => Math.max(...spread(v, 'max')),
  min: (_r, ...v) => Math.min(...spread(v, 'min')),
  mean: (_r, v) => list(v, 'mean').reduce<number>((s, x) => s + num(x, 'mean'), 0) / length(v),
  abs: (_r, v) => Math.abs(num(v, 'abs')),
  ceil: (_r, v) => Math.ceil(num(v, 'ceil')),
  floor: (_r, v) => Math.floor(num(v, 'floor')),
  round: (_r, v) => Math.round(num(v, 'round')),
  int: (_r, v) => Math.trunc(asFloat(v, 'int')),
  float: (_r, v) => asFloat(v, 'float'),
  string: (_r, v) => (typeof v === 'string' ? v : JSON.stringify(v ?? null)),
  lower: (_r, v) => str(v, 'lower').toLowerCase(),
  upper: (_r, v) => str(v, 'upper').toUpperCase(),
  trim: (_r, v) => str(v, 'trim').trim(),
  first: (_r, v) => list(v, 'first')[0] ?? null,
  last: (_r, v) => list(v, 'last').at(-1) ?? null,
  keys: (_r, v) => Object.keys(map(v, 'keys')).sort(),
  values: (_r, v) =>
    Object.keys(map(v, 'values'))
      .sort()
      .map((k) => map(v, 'values')[k]),
};

function length(v: Value): number {
  if (Array.isArray(v) || typeof v === 'string') return v.length;
  if (v !== null && typeof v === 'object') return Object.keys(v).length;
  throw new Error(`invalid argument for len (type ${v === null || v === undefined ? 'nil' : typeof v})`);
}

function num(v: Value, fn: string): number {
  if (typeof v !== 'number') throw new Error(`${fn}() needs a number, got ${JSON.stringify(v ?? null)}`);
  return v;
}

function str(v: Value, fn: string): string {
  if (typeof v !== 'string') throw new Error(`${fn}() needs a string, got ${JSON.stringify(v ?? null)}`);
  return v;
}

function list(v: Value, fn: string): Value[] {
  if (!Array.isArray(v)) throw new Error(`${fn}() needs an array, got ${JSON.stringify(v ?? null)}`);
  return v;
}

function map(v: Value, fn: string): { [key: string]: Value } {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`${fn}() needs a map`);
  return v;
}

function spread(args: Value[], fn: string): number[] {
  const items = args.length === 1 && Array.isArray(args[0]) ? args[0] : args;
  if (items.length === 0) throw new Error(`${fn}() of nothing`);
  return items.map((x) => num(x, fn));
}

/** A predicate's answer for one item; anything but a bool is an error (expr-lang refuses it), never a quiet false. */
function holds(p: Value, item: Value): boolean {
  const v = pred(p)(item);
  if (typeof v !== 'boolean')
    throw new Error(
      `expected bool, but got ${v === null || v === undefined ? 'nil' : JSON.stringify(v)} from a predicate`,
    );
  return v;
}

function pred(p: Value): Predicate {
  if (typeof p !== 'function') throw new Error('expected a predicate such as {# > 0}');
  return p as Predicate;
}

/** Argo's asFloat/asInt: numbers as they are, numeric strings parsed, anything else an error. */
function asFloat(v: Value, fn: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  throw new Error(`${fn}() not supported on ${JSON.stringify(v ?? null)}`);
}
