import { isObject } from '../../src/model/kube';
import type { SimRequest } from '../../src/contract/generator';
import { globMatches, headerOf, hostMatches, requestPath } from './match';

/** Outcome of a `conditions.<name>` annotation for one request; `why` names what decided it. */
export interface ConditionResult {
  readonly matched: boolean;
  readonly why: string;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * Evaluates an ALB conditions annotation: a JSON list, every condition must hold (AND), any value
 * of one condition may (OR). Covers http-header, host-header, path-pattern, http-request-method and
 * query-string; anything else (source-ip, unreadable JSON) does not match, so the rule is skipped.
 */
export function evaluateConditions(raw: string, request: SimRequest): ConditionResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { matched: false, why: 'unreadable conditions' };
  }
  const list = Array.isArray(parsed) ? parsed.filter(isObject) : [];
  const described: string[] = [];
  for (const c of list) {
    const result = evaluateOne(c, request);
    if (!result.matched) return result;
    described.push(result.why);
  }
  return { matched: true, why: described.join(' and ') };
}

function evaluateOne(c: Record<string, unknown>, request: SimRequest): ConditionResult {
  const field = typeof c.field === 'string' ? c.field : '';
  const config = (key: string): Record<string, unknown> =>
    isObject(c[key]) ? (c[key] as Record<string, unknown>) : {};
  switch (field) {
    case 'http-header': {
      const name =
        typeof config('httpHeaderConfig').httpHeaderName === 'string'
          ? (config('httpHeaderConfig').httpHeaderName as string)
          : '';
      const value = headerOf(request, name);
      return anyOf(
        strings(config('httpHeaderConfig').values),
        (v) => value !== undefined && globMatches(v, value, true),
        `http-header ${name}=${value ?? ''}`,
      );
    }
    case 'host-header':
      return anyOf(
        strings(config('hostHeaderConfig').values),
        (v) => hostMatches(v, request.host),
        `host-header ${request.host ?? ''}`,
      );
    case 'path-pattern':
      return anyOf(
        strings(config('pathPatternConfig').values),
        (v) => globMatches(v, requestPath(request), false),
        `path-pattern ${requestPath(request)}`,
      );
    case 'http-request-method':
      return anyOf(
        strings(config('httpRequestMethodConfig').values),
        (v) => v === (request.method ?? 'GET'),
        `http-request-method ${request.method ?? 'GET'}`,
      );
    case 'query-string':
      return queryString(config('queryStringConfig').values, request);
    default:
      return { matched: false, why: `unsupported condition ${field || '(no field)'}` };
  }
}

function anyOf(values: readonly string[], test: (v: string) => boolean, why: string): ConditionResult {
  return { matched: values.some(test), why };
}

function queryString(values: unknown, request: SimRequest): ConditionResult {
  const pairs = Array.isArray(values) ? values.filter(isObject) : [];
  const hit = pairs.some((p) => {
    const value = typeof p.value === 'string' ? p.value : '';
    if (typeof p.key !== 'string') return Object.values(request.query).some((q) => globMatches(value, q, true));
    const q = request.query[p.key];
    return q !== undefined && globMatches(value, q, true);
  });
  return { matched: hit, why: 'query-string' };
}
