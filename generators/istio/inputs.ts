import type { InputAdapters, InputBlock } from '../../src/contract/inputs';
import { str } from '../../src/model/values';

/** Argo `trafficRouting.istio` (as written: options.ts reads it) and Kruise customNetworkRefs that are all Istio objects. */
export const inputs: InputAdapters = {
  argo: { key: 'istio' },
  kruiseCustomRefs: { accepts: (refs) => refs.every(isIstioRef) },
};

/** Kruise ships Lua for these two kinds only; matched by group and kind, whatever version the ref writes. */
function isIstioRef(ref: InputBlock): boolean {
  const apiVersion = str(ref.apiVersion) ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  return group === 'networking.istio.io' && (ref.kind === 'VirtualService' || ref.kind === 'DestinationRule');
}
