import type { InputAdapters, InputBlock } from '../../src/contract/inputs';
import { str } from '../../src/model/values';

/** Kruise `trafficRoutings[].ingress` of these classTypes -> `{ingresses: [name]}`, the options every Ingress provider takes. */
export function kruiseIngressInput(...classTypes: string[]): NonNullable<InputAdapters['kruiseIngress']> {
  return { classTypes, options: (ingress: InputBlock) => ({ ingresses: [str(ingress.name) ?? ''] }) };
}
