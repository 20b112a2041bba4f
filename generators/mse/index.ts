import { MSE } from '../higress/flavour';
import { flavouredGenerator } from '../higress/generator';
import optionsSchema from './options.schema.json';

/**
 * Alibaba MSE Ingress (Kruise `classType: mse`): the Higress implementation with MSE's extensions,
 * canary-by-query (ANDed with a header), `mse.ingress.kubernetes.io/request-header-control-*` and service-subset.
 */
export default flavouredGenerator(
  MSE,
  optionsSchema,
  'MSE Ingress canary Ingress (<ingress>-canary) with nginx-compatible canary annotations, mse canary-by-query and header control',
);
