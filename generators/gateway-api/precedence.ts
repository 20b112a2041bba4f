import type { SimRequest } from '../../src/contract/generator';
import type { Json } from './route';

/**
 * How strongly one HTTPRoute match fits a request, compared field by field in Gateway API
 * precedence order: hostname (exact over wildcard, then longer), Exact path over prefix, longer
 * prefix, a method match, more header matches, more query matches. RegularExpression paths are
 * implementation-specific; they rank below every prefix here.
 */
export type Rank = readonly number[];

export function compareRank(a: Rank, b: Rank): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The rank of a match that fits the request, or undefined when it does not fit. */
export function matchRank(match: Json, request: SimRequest, requestPath: string): Rank | undefined {
  const path = pathRank(match.path, requestPath);
  if (!path) return undefined;
  if (typeof match.method === 'string' && match.method !== (request.method ?? 'GET').toUpperCase()) return undefined;
  const headers = list(match.headers);
  const query = list(match.queryParams);
  if (!headersFit(headers, request.headers) || !queryFits(query, request.query)) return undefined;
  return [...path, match.method !== undefined ? 1 : 0, headers.length, query.length];
}

/** [kind, length]: kind 3 Exact, 2 PathPrefix, 1 RegularExpression. A missing path is PathPrefix `/`. */
function pathRank(raw: unknown, requestPath: string): [number, number] | undefined {
  const p = (raw ?? {}) as Json;
  const type = typeof p.type === 'string' ? p.type : 'PathPrefix';
  const value = typeof p.value === 'string' ? p.value : '/';
  if (type === 'Exact') return value === requestPath ? [3, value.length] : undefined;
  if (type === 'RegularExpression') return fullMatch(value, requestPath) ? [1, value.length] : undefined;
  const want = elements(value);
  const got = elements(requestPath);
  return want.length <= got.length && want.every((e, i) => e === got[i])
    ? [2, value.replace(/\/+$/, '').length]
    : undefined;
}

/** PathPrefix compares `/`-separated elements: `/foo` fits `/foo/bar`, not `/foobar`. */
function elements(path: string): string[] {
  return path.split('/').filter((e) => e !== '');
}

/** Header names are case-insensitive, and only the first entry per name counts (Gateway API). */
function headersFit(matches: readonly Json[], headers: Readonly<Record<string, string>>): boolean {
  const seen = new Set<string>();
  return matches.every((m) => {
    const name = String(m.name).toLowerCase();
    if (seen.has(name)) return true;
    seen.add(name);
    const key = Object.keys(headers).find((h) => h.toLowerCase() === name);
    return key !== undefined && valueFits(m, headers[key]);
  });
}

/** Query parameter names are case-sensitive. */
function queryFits(matches: readonly Json[], query: Readonly<Record<string, string>>): boolean {
  return matches.every(
    (m) => Object.prototype.hasOwnProperty.call(query, String(m.name)) && valueFits(m, query[String(m.name)]),
  );
}

function valueFits(m: Json, value: string): boolean {
  const want = String(m.value ?? '');
  return m.type === 'RegularExpression' ? fullMatch(want, value) : value === want;
}

/** Envoy and most data planes match regexes against the whole value; an invalid one matches nothing. */
function fullMatch(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    return false;
  }
}

function list(v: unknown): Json[] {
  return Array.isArray(v) ? (v as Json[]) : [];
}

/** [tier, length]: tier 2 exact hostname, 1 wildcard, 0 a route without hostnames; undefined when none fits. */
export function hostRank(hostnames: unknown, host: string | undefined): [number, number] | undefined {
  const names = Array.isArray(hostnames) ? hostnames.map((h) => String(h).toLowerCase()) : [];
  if (names.length === 0 || host === undefined) return [0, 0];
  const h = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (names.includes(h)) return [2, h.length];
  const wild = names.filter((n) => n.startsWith('*.') && h.endsWith(n.slice(1)) && h.length > n.length - 1);
  return wild.length > 0 ? [1, Math.max(...wild.map((n) => n.length))] : undefined;
}
