import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import { isObject } from '../../src/model/kube';
import type { GeneratorContext } from '../../src/contract/generator';
import { optionOrigin } from '../_kit/option-origin';
import type { AlbOptions } from './options';

type Ctx = GeneratorContext<AlbOptions>;

/**
 * Each target group of the action is a Service and `servicePort` (a port number, Argo's int32),
 * which the AWS Load Balancer Controller looks up among the Service's `spec.ports[].port`. A Service
 * not among the manifests is reported by the core (stable) or is another app's (canary).
 */
export function checkServicePort(ctx: Ctx): Diagnostic[] {
  const port = ctx.options.servicePort;
  const lacking = [...new Set([ctx.stableService, ctx.canaryService])]
    .map((name) => ({ name, ports: servicePorts(ctx, name) }))
    .filter((s) => s.ports !== undefined && !s.ports.includes(port));
  if (lacking.length === 0) return [];
  const which = lacking.map((s) => `Service "${s.name}" (ports: ${s.ports!.join(', ') || 'none'})`).join(' and ');
  return [
    diagnosticAt(
      optionOrigin(ctx, 'servicePort'),
      `alb.servicePort ${port} is not a port of ${which}, so the AWS Load Balancer Controller cannot resolve the action's target group; set servicePort to a port both the stable and canary Services expose`,
    ),
  ];
}

/** The `port` numbers of a Service among the app's manifests; undefined when it is not among them. */
function servicePorts(ctx: Ctx, name: string): number[] | undefined {
  const source = ctx.resources.find('Service', name, ctx.rollout.namespace);
  if (!source) return undefined;
  const spec = source.object.spec;
  const ports = isObject(spec) && Array.isArray(spec.ports) ? spec.ports.filter(isObject) : [];
  return ports.map((p) => p.port).filter((p): p is number => typeof p === 'number');
}
