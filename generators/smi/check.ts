import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import { isObject, KubeObject } from '../../src/model/kube';
import type { RouteClaim } from '../../src/contract/generator';
import { optionOrigin } from '../_kit/option-origin';
import { Ctx, rootService, SMI_GROUP, splitName, SUPPORTED_VERSIONS } from './options';

const where = (ctx: Ctx): string => `app ${ctx.app}, rollout ${ctx.rollout.name}`;

/** Two distinct Services, a root Service that exists; a TrafficSplit written in the manifests is an SMI one of a version Argo writes. */
export function check(ctx: Ctx): Diagnostic[] {
  const out: Diagnostic[] = [...checkRootService(ctx)];
  if (!ctx.stableService || ctx.stableService === ctx.canaryService)
    out.push(
      diagnosticAt(ctx.optionsOrigin, `${where(ctx)}: smi needs canaryService and stableService (two Services)`),
    );
  if (rootService(ctx) === ctx.canaryService)
    out.push(diagnosticAt(ctx.optionsOrigin, `${where(ctx)}: smi rootService must not be the canary Service`));
  const source = ctx.resources.find('TrafficSplit', splitName(ctx), ctx.rollout.namespace);
  if (source) {
    const [group, version] = source.object.apiVersion.split('/');
    if (group !== SMI_GROUP || !SUPPORTED_VERSIONS.includes(version))
      out.push(
        diagnosticAt(
          source.origin,
          `${where(ctx)}: TrafficSplit "${splitName(ctx)}" is ${source.object.apiVersion}; rollgen writes ${SMI_GROUP}/${SUPPORTED_VERSIONS.join(', ')}`,
        ),
      );
    for (const other of otherBackends(source.object, [ctx.stableService, ctx.canaryService]))
      out.push(
        diagnosticAt(
          source.locate(['spec', 'backends']),
          `${where(ctx)}: TrafficSplit "${splitName(ctx)}" lists backend "${other}"; rollgen renders the backends per step (canary and stable only), so remove it`,
        ),
      );
  }
  return out;
}

/**
 * The TrafficSplit splits calls to its root Service: one that is not there splits nothing. Unset, it
 * is the stable Service (Argo's default), whose absence the core reports at stableService.
 */
function checkRootService(ctx: Ctx): Diagnostic[] {
  const root = ctx.options.rootService;
  if (root === undefined || root === ctx.stableService) return [];
  if (ctx.resources.find('Service', root, ctx.rollout.namespace)) return [];
  return [
    diagnosticAt(
      optionOrigin(ctx, 'rootService'),
      `${where(ctx)}: smi.rootService "${root}" names no Service among the app's manifests, so the TrafficSplit would split nothing; add the Service clients call or fix rootService (unset, it is the stable Service "${ctx.stableService}")`,
    ),
  ];
}

function otherBackends(o: KubeObject, ours: readonly string[]): string[] {
  const backends = isObject(o.spec) && Array.isArray(o.spec.backends) ? o.spec.backends.filter(isObject) : [];
  return backends.map((b) => String(b.service ?? '')).filter((s) => !ours.includes(s.split('.')[0]));
}

/** The TrafficSplit and its root Service: two rollouts splitting one root would fight over it. */
export function claims(ctx: Ctx): RouteClaim[] {
  const ns = ctx.rollout.namespace ?? '';
  return [
    {
      key: `smi:${ns}/${splitName(ctx)}`,
      description: `TrafficSplit "${splitName(ctx)}"`,
      origin: ctx.optionsOrigin,
    },
    {
      key: `smi-root:${ns}/${rootService(ctx)}`,
      description: `SMI root Service "${rootService(ctx)}"`,
      origin: ctx.optionsOrigin,
    },
  ];
}
