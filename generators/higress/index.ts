import { HIGRESS } from './flavour';
import { flavouredGenerator } from './generator';
import { optionsSchema } from './options';

/**
 * Higress (Kruise `classType: higress`): nginx-compatible canary annotations on `<ingress>-canary`,
 * plus `higress.io/request-header-control-*` for requestHeaderModifier. No query match.
 */
export default flavouredGenerator(
  HIGRESS,
  optionsSchema,
  'Higress canary Ingress (<ingress>-canary) with nginx-compatible canary annotations and higress.io header control',
);

export type { HigressOptions } from './options';
