import type { InputAdapters } from '../../src/contract/inputs';

/** Argo `trafficRouting.appMesh`, handed over as written (options.schema.json checks it). */
export const inputs: InputAdapters = { argo: { key: 'appMesh' } };
