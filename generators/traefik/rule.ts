import type { SimRequest } from '../../src/contract/generator';
import type { Json } from './options';

/**
 * The subset of Traefik's rule language the simulator reads: matchers joined by `&&`, each one of
 * Host, PathPrefix, Path and Header with backquoted or double-quoted arguments. Any other
 * matcher (||, !, parentheses, regexp matchers) makes the rule not match, so the request falls to
 * a rule the simulator understands or to none.
 */
export function matches(rule: string, request: SimRequest): boolean {
  const parts = rule.split('&&').map((p) => p.trim());
  return parts.length > 0 && parts.every((p) => matcherFits(p, request));
}

const MATCHER = /^(Host|PathPrefix|Path|Header)\(\s*((?:[`"][^`"]*[`"]\s*,?\s*)+)\)$/;

function matcherFits(text: string, request: SimRequest): boolean {
  const m = MATCHER.exec(text);
  if (!m) return false;
  const args = [...m[2].matchAll(/[`"]([^`"]*)[`"]/g)].map((a) => a[1]);
  const path = request.path.split(/[?#]/)[0] || '/';
  switch (m[1]) {
    case 'Host':
      return args.some((h) => h.toLowerCase() === (request.host ?? '').toLowerCase().replace(/:\d+$/, ''));
    case 'PathPrefix':
      return args.some((p) => path.startsWith(p));
    case 'Path':
      return args.some((p) => path === p);
    default:
      return header(request, args[0]) === args[1];
  }
}

function header(r: SimRequest, name: string | undefined): string | undefined {
  const found = Object.keys(r.headers).find((h) => h.toLowerCase() === (name ?? '').toLowerCase());
  return found === undefined ? undefined : r.headers[found];
}

/** Traefik's default priority is the rule's length: longer (more specific) rules first. */
export const priorityOf = (route: Json): number =>
  typeof route.priority === 'number' && route.priority > 0 ? route.priority : String(route.match ?? '').length;
