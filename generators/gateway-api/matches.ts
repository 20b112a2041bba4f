import type { RouteMatch, ValueMatch } from '../../src/model/rollout';
import type { Json } from './route';

/** Gateway API limits per match (CRD validation). */
export const MAX_HEADERS_PER_MATCH = 16;
export const MAX_QUERY_PER_MATCH = 16;

/**
 * A rollout value match as a Gateway API header / query match. Gateway API has Exact and
 * RegularExpression only, so a prefix becomes an anchored regex of the escaped prefix (the Argo
 * plugin writes `<prefix>.*` unescaped; anchoring and escaping keep the meaning on any engine).
 */
export function valueMatch(m: ValueMatch): Json {
  if (m.type === 'Prefix') return { type: 'RegularExpression', name: m.name, value: `^${escapeRegex(m.value)}.*` };
  return { type: m.type, name: m.name, value: m.value };
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The conditions of one rollout match, in Gateway API field order. */
export function conditionFields(m: RouteMatch): Json {
  return {
    ...(m.path ? { path: { type: m.path.type, value: m.path.value } } : {}),
    ...(m.headers.length > 0 ? { headers: m.headers.map(valueMatch) } : {}),
    ...(m.queryParams.length > 0 ? { queryParams: m.queryParams.map(valueMatch) } : {}),
    ...(m.method ? { method: m.method.value } : {}),
  };
}

export interface Crossed {
  readonly matches: Json[];
  readonly problems: string[];
}

/**
 * The matches of a canary rule derived from one stable rule, as Kruise builds them (with the
 * fixes of openkruise/rollouts#342): rollout matches with a path stand alone and are used only for
 * the first stable rule; every other rollout match is ANDed into each of the rule's own matches
 * (m-major). A condition the rule already has on the same header, query parameter or method would
 * be shadowed (Gateway API honours only the first entry per name), so it is a problem, never dropped.
 */
export function crossMatches(ruleMatches: readonly Json[], conditions: readonly RouteMatch[], first: boolean): Crossed {
  const problems: string[] = [];
  const matches: Json[] = first ? conditions.filter((k) => k.path).map(conditionFields) : [];
  for (const m of ruleMatches) {
    for (const k of conditions.filter((c) => !c.path)) {
      const { match, conflicts } = andMatch(m, k);
      matches.push(match);
      problems.push(...conflicts);
    }
  }
  return { matches, problems };
}

function andMatch(m: Json, k: RouteMatch): { match: Json; conflicts: string[] } {
  const conflicts: string[] = [];
  const headers = merged(list(m.headers), k.headers.map(valueMatch), 'header', conflicts, (n) => n.toLowerCase());
  const query = merged(list(m.queryParams), k.queryParams.map(valueMatch), 'query parameter', conflicts, (n) => n);
  // features.ts refuses a non-exact method (an HTTPRoute method is one exact value).
  const own = k.method?.value;
  if (own && typeof m.method === 'string' && m.method !== own) {
    conflicts.push(`method ${own} ANDed with the rule's own method ${m.method} matches nothing`);
  }
  const method = own ?? m.method;
  const match: Json = {
    ...(m.path !== undefined ? { path: m.path } : {}),
    ...(headers.length > 0 ? { headers } : {}),
    ...(query.length > 0 ? { queryParams: query } : {}),
    ...(method !== undefined ? { method } : {}),
  };
  return { match, conflicts };
}

function merged(own: Json[], added: Json[], what: string, conflicts: string[], key: (n: string) => string): Json[] {
  const names = new Set(own.map((e) => key(String(e.name))));
  for (const a of added) {
    if (names.has(key(String(a.name))))
      conflicts.push(
        `${what} "${String(a.name)}" is already matched by the HTTPRoute rule; Gateway API honours only its first entry per name`,
      );
  }
  return [...own.map((e) => ({ ...e })), ...added];
}

function list(v: unknown): Json[] {
  return Array.isArray(v) ? (v as Json[]) : [];
}
