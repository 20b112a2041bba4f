import type { InputAdapters, InputBlock } from '../../src/contract/inputs';
import { arr, str, stringMap } from '../../src/model/values';
import { kruiseIngressInput } from '../_kit/ingress-inputs';

/** Kruise `classType: nginx` and Argo `trafficRouting.nginx`. */
export const inputs: InputAdapters = {
  argo: { key: 'nginx', options: argoNginxOptions },
  kruiseIngress: kruiseIngressInput('nginx'),
};

function argoNginxOptions(nginx: InputBlock): Record<string, unknown> {
  const single = str(nginx.stableIngress);
  return {
    ingresses: single ? [single] : arr(nginx.stableIngresses).map(String),
    ...(str(nginx.annotationPrefix) ? { annotationPrefix: str(nginx.annotationPrefix) } : {}),
    additionalIngressAnnotations: stringMap(nginx.additionalIngressAnnotations),
    canaryIngressAnnotations: stringMap(nginx.canaryIngressAnnotations),
  };
}
