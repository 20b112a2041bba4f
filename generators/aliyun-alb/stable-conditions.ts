import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import type { GeneratorContext } from '../../src/contract/generator';
import { key } from './annotations';
import type { AlbOptions } from './options';

/**
 * The stable Service's own forwarding conditions (`conditions.<stable Service>`: a source-ip limit,
 * a method) hold for weighted canary traffic, which the ALB controller merges into the stable
 * rule's server groups. A header or cookie canary Ingress is a forwarding rule of its own, ahead of
 * the stable one, and the controller refuses custom conditions on a canary Ingress ("can't exist
 * Canary and customize condition at the same time", alibaba-load-balancer-controller
 * model_build_listener_rules.go), so rollgen cannot carry the limit there: a request sending the
 * step's header would pass it. Refused at the annotation when a step matches headers or cookies.
 */
export function stableConditionsWithMatches(ctx: GeneratorContext<AlbOptions>, source: SourceObject): Diagnostic[] {
  const annotation = key(`conditions.${ctx.stableService}`);
  if (source.object.metadata.annotations?.[annotation] === undefined) return [];
  const step = ctx.rollout.steps.findIndex((s) => s.matches.length > 0);
  if (step < 0) return [];
  return [
    diagnosticAt(
      source.locate(['metadata', 'annotations', annotation]),
      `annotation ${annotation} on Ingress "${source.object.metadata.name}" limits the stable Service's forwarding rule, but step ${step + 1} matches a header or cookie, whose canary Ingress is a rule of its own that ALB allows no custom conditions on: a request sending the match would pass the limit. Remove the step's matches (weighted steps keep the limit) or move the limit off the Ingress (e.g. to a security group or WAF)`,
    ),
  ];
}
