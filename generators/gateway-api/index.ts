import { defineGenerator } from '../../src/contract/generator';
import { capabilities } from './capabilities';
import { check, claims } from './check';
import { GatewayOptions, optionsSchema } from './options';
import { render, unsupportedFeatures } from './render';
import { simulate } from './simulate';
import { inputs } from './inputs';

export { capabilities };

export default defineGenerator<GatewayOptions>({
  id: 'gateway-api',
  summary:
    'Gateway API HTTPRoute: backendRef weights beside the stable ref, canary rules for header/query/path matches, RequestMirror',
  capabilities,
  optionsSchema,
  inputs,
  check,
  unsupported: unsupportedFeatures,
  claims,
  render,
  simulate,
});
