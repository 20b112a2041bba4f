import type { HeaderModifier, RouteMatch, ValueMatch } from '../../src/model/rollout';
import { isObject } from '../../src/model/kube';
import type { Json } from './vs';

/** Istio header keys must be lower case (HTTPMatchRequest.headers); a RouteMatch is one ANDed block. */
export function istioMatch(m: RouteMatch): Json {
  const out: Json = {};
  if (m.headers.length > 0)
    out.headers = Object.fromEntries(m.headers.map((h) => [h.name.toLowerCase(), stringMatch(h)]));
  if (m.queryParams.length > 0)
    out.queryParams = Object.fromEntries(m.queryParams.map((q) => [q.name, stringMatch(q)]));
  if (m.path)
    out.uri = { [m.path.type === 'Exact' ? 'exact' : m.path.type === 'PathPrefix' ? 'prefix' : 'regex']: m.path.value };
  if (m.method) out.method = stringMatch(m.method);
  return out;
}

function stringMatch(v: Pick<ValueMatch, 'type' | 'value'>): Json {
  return { [v.type === 'Exact' ? 'exact' : v.type === 'Prefix' ? 'prefix' : 'regex']: v.value };
}

const MAPS = ['headers', 'queryParams', 'withoutHeaders'];

/** Both blocks at once (AND), or a sentence naming the condition one block cannot hold twice. */
export function andBlocks(a: Json, b: Json): Json | string {
  const out: Json = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (MAPS.includes(key) && isObject(value)) {
      const merged: Json = { ...(isObject(a[key]) ? a[key] : {}) };
      for (const [k, v] of Object.entries(value)) {
        if (merged[k] !== undefined && JSON.stringify(merged[k]) !== JSON.stringify(v))
          return `${key}.${k} both ${JSON.stringify(merged[k])} and ${JSON.stringify(v)}`;
        merged[k] = v;
      }
      out[key] = merged;
    } else if (a[key] !== undefined && JSON.stringify(a[key]) !== JSON.stringify(value)) {
      return `${key} both ${JSON.stringify(a[key])} and ${JSON.stringify(value)}`;
    } else out[key] = value;
  }
  return out;
}

/**
 * The match of a canary route derived from a user route: the user route's conditions AND the
 * step's (each list ORed), so it only takes requests that route would have sent to stable.
 */
export function andLists(ruleMatch: unknown, step: readonly Json[]): { blocks: Json[]; conflicts: string[] } {
  const own = Array.isArray(ruleMatch) ? ruleMatch.filter(isObject) : [];
  if (own.length === 0) return { blocks: [...step], conflicts: [] };
  const blocks: Json[] = [];
  const conflicts: string[] = [];
  for (const r of own) {
    for (const s of step) {
      const merged = andBlocks(r, s);
      if (typeof merged === 'string') conflicts.push(merged);
      else blocks.push(merged);
    }
  }
  return { blocks, conflicts };
}

/** HeaderModifier -> Istio `headers.request` operations, empty parts left out; undefined when nothing to do. */
export function requestHeaders(m: HeaderModifier | undefined): Json | undefined {
  if (!m) return undefined;
  const ops: Json = {};
  if (m.set.length > 0) ops.set = Object.fromEntries(m.set.map((p) => [p.name, p.value]));
  if (m.add.length > 0) ops.add = Object.fromEntries(m.add.map((p) => [p.name, p.value]));
  if (m.remove.length > 0) ops.remove = [...m.remove];
  return Object.keys(ops).length > 0 ? { request: ops } : undefined;
}
