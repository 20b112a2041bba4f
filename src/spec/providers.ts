import type { ProviderInput, ProviderInputs } from '../contract/inputs';
import { Diagnostic, Origin } from '../diagnostics';
import { ProviderRef, RolloutSpec } from '../model/rollout';
import { arr, obj, str } from '../model/values';
import { ParsedDocument } from '../yaml/parse';

export interface NormalizeResult {
  readonly rollout: RolloutSpec;
  readonly diagnostics: readonly Diagnostic[];
}

type Path = (string | number)[];

/**
 * One Kruise trafficRoutings entry (or TrafficRouting objectRef) -> provider refs. Which provider
 * each entry names, and its options, is the generators' business (their `inputs`), asked through `inputs`.
 */
export function providerFromKruiseRouting(
  doc: ParsedDocument,
  routing: Record<string, unknown>,
  path: Path,
  out: Diagnostic[],
  inputs: ProviderInputs,
): ProviderRef[] {
  const refs: ProviderRef[] = [];
  if (routing.ingress !== undefined) {
    const ingress = obj(routing.ingress);
    const classType = str(ingress.classType) ?? 'nginx';
    const found = inputs.kruiseIngress(classType, ingress);
    if (!found) {
      const o = doc.locate([...path, 'ingress', 'classType']);
      out.push({
        ...o,
        message: `ingress classType "${classType}" is unknown; use one of ${inputs.kruiseIngressClasses.join(', ')}`,
        severity: 'error',
      });
    } else refs.push(refAt(found, doc.locate([...path, 'ingress'])));
  }
  const gateway = routing.gateway === undefined ? undefined : inputs.kruiseGateway(obj(routing.gateway));
  if (gateway) refs.push(refAt(gateway, doc.locate([...path, 'gateway'])));
  const custom = arr(routing.customNetworkRefs).map(obj);
  const taker = custom.length > 0 ? inputs.kruiseCustomRefs(custom) : undefined;
  if (taker) refs.push(refAt(taker, doc.locate([...path, 'customNetworkRefs'])));
  // Kruise would route nothing for such an entry; rollgen will not quietly fall back to pods.
  if (routing.ingress === undefined && routing.gateway === undefined && custom.length === 0)
    out.push({
      ...doc.locate(path),
      message:
        'this traffic routing names no ingress, gateway or customNetworkRefs, so nothing would route traffic to the canary; add one, or remove the entry to roll out by pod counts',
      severity: 'error',
    });
  return refs;
}

/** Argo's trafficRouting keys in its reconcile order; `plugins` entries follow as `plugins/<name>`. */
const ARGO_ROUTING_KEYS = ['istio', 'nginx', 'alb', 'smi', 'ambassador', 'appMesh', 'traefik', 'apisix'];

/**
 * Argo trafficRouting -> provider refs, in Argo's reconcile order; the provider of each key is asked
 * through `inputs`. A plugin no generator reads is refused by name, listing what rollgen renders.
 */
export function providersFromArgo(
  doc: ParsedDocument,
  routing: Record<string, unknown>,
  path: Path,
  inputs: ProviderInputs,
  out: Diagnostic[],
): ProviderRef[] {
  for (const plugin of Object.keys(obj(routing.plugins)).filter((p) => !inputs.argoKeys.includes(`plugins/${p}`)))
    out.push({
      ...doc.locate([...path, 'plugins', plugin]),
      message: `traffic router plugin ${plugin} is not supported: rollgen renders ${inputs.argoKeys.map((k) => k.replace('/', '.')).join(', ')}; use one of them`,
      severity: 'error',
    });
  const at = (key: string) => doc.locate([...path, key]);
  const refs: ProviderRef[] = [];
  for (const key of ARGO_ROUTING_KEYS.filter((k) => routing[k] !== undefined)) {
    const found = inputs.argo(key, obj(routing[key]));
    if (found) refs.push(refAt(found, at(key), (field) => doc.locate([...path, key, ...field])));
  }
  for (const [name, block] of Object.entries(obj(routing.plugins))) {
    const found = inputs.argo(`plugins/${name}`, obj(block));
    if (found) refs.push(refAt(found, at('plugins'), (field) => doc.locate([...path, 'plugins', name, ...field])));
  }
  return refs;
}

/** `locate`: where an option field is written in the block (a field the adapter renamed or left out: the block). */
const refAt = (found: ProviderInput, origin: Origin, locate?: ProviderRef['locate']): ProviderRef => ({
  provider: found.provider,
  origin,
  options: found.options,
  ...(locate ? { locate } : {}),
});
