import { Capabilities, defineGenerator } from '../../src/contract/generator';
import { check, checkRepo, claims } from './check';
import { checkCommitted, describeOrders } from './committed';
import { unsupportedFeatures } from './features';
import { kruiseIngressInput } from '../_kit/ingress-inputs';
import { AlbOptions, optionsSchema } from './options';
import { render } from './render';
import { simulate } from './simulate';

/**
 * What ALB canary annotations can say: one canary-by-header with an exact value (no regex), one
 * canary-by-cookie (value "always"), a whole percentage; a header/cookie match with a weight takes
 * two canary Ingresses. `unsupportedFeatures` checks a step precisely against this.
 */
export const capabilities: Capabilities = {
  weight: true,
  customWeightTotal: false,
  headerMatchTypes: ['Exact'],
  cookieMatch: true,
  queryMatch: false,
  pathMatch: false,
  methodMatch: false,
  conditionsPerMatch: 1,
  matchesPerStep: 2,
  matchWithWeight: true,
  namedHeaderRoutes: false,
  mirror: false,
  requestHeaderModifier: false,
};

export default defineGenerator<AlbOptions>({
  id: 'aliyun-alb',
  summary:
    'Alibaba Cloud ALB canary Ingresses (<ingress>-canary, <ingress>-canary-header) with canary annotations and repo-wide unique alb.ingress.kubernetes.io/order',
  capabilities,
  optionsSchema,
  /** Kruise `classType: aliyun-alb`. */
  inputs: { kruiseIngress: kruiseIngressInput('aliyun-alb') },
  check,
  unsupported: unsupportedFeatures,
  claims,
  checkRepo,
  checkCommitted,
  describeRepo: describeOrders,
  render,
  simulate,
});

export type { AlbOptions } from './options';
