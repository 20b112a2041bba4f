import { isObject } from '../model/kube';
import { HeaderModifier, ReplicaAmount, RouteMatch, StringMatchType, ValueMatch } from '../model/rollout';
import { arr, obj, str } from '../model/values';

/** Readers of Kruise's own value shapes: replica amounts, HttpRouteMatch, header modifiers. */

/** "20%" -> percent 20; 3 -> count 3; "3" -> count 3. Kruise rounds a fractional percent up. */
export function parseAmount(v: unknown): ReplicaAmount | undefined {
  if (typeof v === 'number') return { count: v };
  if (typeof v !== 'string') return undefined;
  const m = /^(\d+(?:\.\d+)?)%$/.exec(v.trim());
  if (m) return { percent: Number(m[1]) };
  return /^\d+$/.test(v.trim()) ? { count: Number(v) } : undefined;
}

export function parsePercent(v: unknown): number | undefined {
  const a = parseAmount(v);
  return a && 'percent' in a ? Math.ceil(a.percent) : undefined;
}

const KRUISE_COOKIE_HEADER = 'canary-by-cookie';

/** Kruise HttpRouteMatch -> RouteMatch. A header named canary-by-cookie is Kruise's cookie convention. */
export function kruiseMatch(v: unknown): RouteMatch {
  const m = obj(v);
  const headers: ValueMatch[] = [];
  const cookies: ValueMatch[] = [];
  for (const h of arr(m.headers).map(valueMatch)) {
    if (h.name.toLowerCase() === KRUISE_COOKIE_HEADER) cookies.push({ name: h.value, type: 'Exact', value: 'always' });
    else headers.push(h);
  }
  const path = isObject(m.path)
    ? {
        type: (str(m.path.type) ?? 'PathPrefix') as 'Exact' | 'PathPrefix' | 'RegularExpression',
        value: str(m.path.value) ?? '/',
      }
    : undefined;
  return { headers, queryParams: arr(m.queryParams).map(valueMatch), cookies, ...(path ? { path } : {}) };
}

function valueMatch(v: unknown): ValueMatch {
  const m = obj(v);
  return { name: str(m.name) ?? '', type: (str(m.type) ?? 'Exact') as StringMatchType, value: str(m.value) ?? '' };
}

export function headerModifier(v: unknown): HeaderModifier | undefined {
  if (!isObject(v)) return undefined;
  const pairs = (x: unknown) => arr(x).map((p) => ({ name: str(obj(p).name) ?? '', value: str(obj(p).value) ?? '' }));
  return { set: pairs(v.set), add: pairs(v.add), remove: arr(v.remove).map((r) => String(r)) };
}
