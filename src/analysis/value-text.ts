import type { Value } from './builtins';

/**
 * A measurement's value as Argo Rollouts stores and prints it, so every output of rollgen (the
 * `analyze` text and JSON, the record on the check run, PR bodies, check-run summaries) shows the
 * same bytes Argo's AnalysisRun would. The provider formats the value once; everything else prints
 * that text, and charts read numbers back from it with firstNumber. Pure.
 */

/**
 * A Prometheus sample as Argo writes it: `model.SampleValue.String()`, which is Go's
 * `strconv.FormatFloat(v, 'f', -1, 64)`: the shortest digits that read back as the same float64,
 * never in exponent form (1e-7 is `0.0000001`), `-0` kept, and `NaN`, `+Inf`, `-Inf`.
 * ECMAScript's Number-to-String picks the same shortest digits (closest to the value), so only the
 * notation is rewritten here.
 */
export function formatSample(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (Object.is(v, -0)) return '-0';
  const text = String(v);
  const exp = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exp) return text;
  const [, sign, first, rest = '', power] = exp;
  const digits = first + rest;
  const e = Number(power);
  // Exponent form only appears from 1e21 up (more zeros than fraction digits) and below 1e-6.
  return e >= 0 ? sign + digits + '0'.repeat(e - rest.length) : `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
}

/**
 * A web metric's value as Argo writes it: Go's `json.Marshal` of what `json.Unmarshal` read (numbers
 * are float64). It differs from JSON.stringify in three ways: object keys are sorted, `<`, `>`, `&`,
 * U+2028 and U+2029 in strings are escaped, and negative zero stays `-0`.
 */
export function formatJson(v: Value): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : JSON.stringify(v);
  if (typeof v === 'string') return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, escapeChar);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(formatJson).join(',')}]`;
  const keys = Object.keys(v).sort(byCodePoint);
  return `{${keys.map((k) => `${formatJson(k)}:${formatJson(v[k])}`).join(',')}}`;
}

const escapeChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Go sorts map keys by their UTF-8 bytes: code point order (UTF-16 order differs above U+FFFF). */
function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * The first number in a value's text (a vector's first sample: `[0.99,0.98]` -> 0.99; `{"p99":12}`
 * -> 12), for charts; undefined when there is none. Reads every form the formatters above write,
 * exponents included.
 */
export function firstNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const found = /(?<![\w.])(?:[-+]?Inf|NaN)(?!\w)|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/.exec(value);
  if (!found) return undefined;
  return found[0].endsWith('Inf') ? (found[0].startsWith('-') ? -Infinity : Infinity) : Number(found[0]);
}
