import type { InputAdapters, InputBlock } from '../../src/contract/inputs';
import { arr, str } from '../../src/model/values';

/** Argo `trafficRouting.alb`. */
export const inputs: InputAdapters = { argo: { key: 'alb', options: argoAlbOptions } };

/** Argo `alb` -> aws-alb options: `ingress` and `ingresses` merged, the rest as written (the generator schema validates it). */
function argoAlbOptions(alb: InputBlock): Record<string, unknown> {
  const single = str(alb.ingress);
  const ingresses = [...(single ? [single] : []), ...arr(alb.ingresses).map(String)];
  const { ingress: _single, ingresses: _many, ...rest } = alb;
  return { ...rest, ingresses: [...new Set(ingresses)] };
}
