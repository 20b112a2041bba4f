import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import type { GeneratorContext } from '../../src/contract/generator';
import type { Flavour } from './flavour';
import type { HigressOptions } from './options';

/** `<prefix>/{exact,prefix,regex}-match-header-<name>` and `-match-pseudo-header-<name>` (Higress match.go). */
const HEADER_MATCH = /^(?:exact|prefix|regex)-match-(?:pseudo-)?header-./;

/**
 * The stable Ingress's own header matches (`higress.io/exact-match-header-x-tenant`) limit the
 * stable route. A header or cookie canary route copies that route but replaces its header matches
 * with the canary one (ApplyByHeader in Higress's annotations/canary.go), so a request sending the
 * step's header or cookie would reach the canary without the stable's headers. Weighted canaries
 * are merged into the stable route and keep them. Refused at the annotation.
 */
export function stableHeaderMatches(
  f: Flavour,
  ctx: GeneratorContext<HigressOptions>,
  source: SourceObject,
): Diagnostic[] {
  const step = ctx.rollout.steps.findIndex((s) => s.matches.some((m) => m.headers.length + m.cookies.length > 0));
  if (step < 0) return [];
  const prefixes = [...new Set([`${f.extPrefix}/`, 'higress.io/'])];
  return Object.keys(source.object.metadata.annotations ?? {})
    .filter((k) => prefixes.some((p) => k.startsWith(p) && HEADER_MATCH.test(k.slice(p.length))))
    .map((k) =>
      diagnosticAt(
        source.locate(['metadata', 'annotations', k]),
        `annotation ${k} on Ingress "${source.object.metadata.name}" limits the stable route to a header, but step ${step + 1} matches a header or cookie, and ${f.product} builds that canary route from the stable one with its header matches replaced by the canary's: a request sending the step's match would reach the canary without ${k.slice(k.indexOf('/') + 1)}. Remove the step's header/cookie matches (weighted steps keep the limit) or the annotation`,
      ),
    );
}
