import type { InputAdapters } from '../../src/contract/inputs';

/** Argo `trafficRouting.apisix`, handed over as written (options.schema.json checks it). */
export const inputs: InputAdapters = { argo: { key: 'apisix' } };
