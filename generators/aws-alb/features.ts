import type { TrafficState } from '../../src/model/plan';
import type { NamedRoute, ValueMatch } from '../../src/model/rollout';
import { headerValue } from './actions';

/** AWS quotas: condition values per rule (not adjustable), header value and header name sizes. */
export const MAX_CONDITION_VALUES = 5;
const MAX_VALUE_LENGTH = 128;
const MAX_HEADER_NAME_LENGTH = 40;

/**
 * What one ALB rule per header route cannot say, one plain sentence per feature. Weight totals,
 * mirrors, cookies and the like are refused through `capabilities` before this runs.
 */
export function unsupportedFeatures(traffic: TrafficState): string[] {
  const out: string[] = [];
  if (!Number.isInteger(traffic.weight) || traffic.weight < 0 || traffic.weight > 100) {
    out.push(`weight ${traffic.weight} (ALB target group weights are whole numbers, here out of 100)`);
  }
  for (const route of traffic.headerRoutes) out.push(...routeFeatures(route));
  return out;
}

function routeFeatures(route: NamedRoute): string[] {
  const out: string[] = [];
  const label = `header route "${route.name}"`;
  const headers = route.matches.flatMap((m) => m.headers);
  if (headers.length === 0)
    out.push(`${label} without a header match (it would send every request to the canary; use setWeight)`);
  const names = [...new Set(headers.map((h) => h.name.toLowerCase()))];
  if (names.length > 1) {
    out.push(
      `${label} ORs matches on different headers (${names.join(', ')}); an ALB rule ANDs its conditions, so use one header per route or one route per header`,
    );
  }
  for (const h of headers) out.push(...headerFeatures(label, h));
  const values = new Set(headers.map(headerValue)).size;
  if (values > MAX_CONDITION_VALUES)
    out.push(
      `${label} with ${values} header values (an ALB rule holds at most ${MAX_CONDITION_VALUES} condition values)`,
    );
  return out;
}

function headerFeatures(label: string, h: ValueMatch): string[] {
  const what = `${label}: header ${h.name} ${h.type} "${h.value}"`;
  if (h.type === 'RegularExpression')
    return [`${what} (ALB http-header conditions match exact values and * ? wildcards, not regular expressions)`];
  const out: string[] = [];
  // An Exact value keeps its * and ? as ALB wildcards, as Argo writes it (warned at the step, check.ts).
  if (h.type !== 'Exact' && /[*?]/.test(h.value))
    out.push(`${what} (ALB reads * and ? in header values as wildcards and has no escape for them)`);
  if (h.value === '' && h.type === 'Exact') out.push(`${what} (ALB http-header values cannot be empty)`);
  if (headerValue(h).length > MAX_VALUE_LENGTH)
    out.push(`${what} (ALB header values are at most ${MAX_VALUE_LENGTH} characters)`);
  if (h.name.length > MAX_HEADER_NAME_LENGTH || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h.name)) {
    out.push(`${what} (ALB header names are RFC 7230 tokens of at most ${MAX_HEADER_NAME_LENGTH} characters)`);
  }
  return out;
}
