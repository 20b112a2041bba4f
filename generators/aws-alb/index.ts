import { Capabilities, defineGenerator } from '../../src/contract/generator';
import { check, claims } from './check';
import { AlbOptions, optionsSchema } from './options';
import { render, unsupportedFeatures } from './render';
import { simulate } from './simulate';
import { inputs } from './inputs';

/**
 * What one ALB forward action plus one listener rule per header route can say: a weight out of
 * 100 and Argo setHeaderRoute with http-header conditions (Exact, Prefix as `value*`). No
 * Kruise matches (aws-alb is Argo only), cookies, queries, mirrors or other weight totals.
 * `unsupportedFeatures` (features.ts) checks each route precisely.
 */
export const capabilities: Capabilities = {
  weight: true,
  customWeightTotal: false,
  headerMatchTypes: ['Exact', 'Prefix'],
  cookieMatch: false,
  queryMatch: false,
  pathMatch: false,
  methodMatch: false,
  conditionsPerMatch: 1,
  matchesPerStep: 0,
  matchWithWeight: true,
  namedHeaderRoutes: true,
  mirror: false,
  requestHeaderModifier: false,
  pingPong: 'preferred',
};

export default defineGenerator<AlbOptions>({
  id: 'aws-alb',
  summary:
    'AWS Load Balancer Controller Ingress annotations: actions.<service> forward weights, actions/conditions.<route> header routes',
  capabilities,
  optionsSchema,
  inputs,
  check,
  unsupported: unsupportedFeatures,
  claims,
  render,
  simulate,
});
