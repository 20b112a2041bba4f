import { diagnosticAt } from '../diagnostics';
import { credentialsOf } from './credentials';
import { ProviderFields, durationField, refuseUnknown, textField } from './provider-fields';
import { GraphiteProvider, SkyWalkingProvider, WavefrontProvider } from './types';

/** Argo's `provider.graphite`: `address` (the Graphite web API) and `query` (render API parameters). Pure. */
export function graphiteProvider(f: ProviderFields): GraphiteProvider {
  refuseUnknown(f, ['address', 'query']);
  return {
    kind: 'graphite',
    address: url(f, textField(f, 'address', true)),
    query: textField(f, 'query', true) ?? '',
    timeoutSeconds: 10,
    secretArgs: f.args.secrets,
  };
}

/**
 * Argo's `provider.wavefront`: `address` (the Wavefront host) and `query` (WQL). The API token is the
 * key named by the address in Argo's Secret `wavefront-api-tokens`. Pure.
 */
export function wavefrontProvider(f: ProviderFields): WavefrontProvider {
  refuseUnknown(f, ['address', 'query']);
  const address = textField(f, 'address', true) ?? '';
  return {
    kind: 'wavefront',
    address,
    query: textField(f, 'query', true) ?? '',
    timeoutSeconds: 30,
    credentials: credentialsOf('wavefront-api-tokens', [{ key: address, required: true, secret: true }], f.secrets),
    secretArgs: f.args.secrets,
  };
}

/** Argo's `provider.skywalking`: `address` (the OAP server), `query` (GraphQL with `$duration`), `interval`. Pure. */
export function skyWalkingProvider(f: ProviderFields): SkyWalkingProvider {
  refuseUnknown(f, ['address', 'query', 'interval']);
  if (f.body.interval === undefined)
    f.out.push(diagnosticAt(f.here(), 'skywalking provider needs interval (the $duration queried, e.g. 5m)'));
  return {
    kind: 'skywalking',
    address: url(f, textField(f, 'address', true)),
    query: textField(f, 'query', true) ?? '',
    intervalSeconds: durationField(f, 'interval', 300),
    // Argo's defaultQueryTimeout.
    timeoutSeconds: 30,
    secretArgs: f.args.secrets,
  };
}

function url(f: ProviderFields, address: string | undefined): string {
  if (address === undefined) return '';
  if (!/^https?:\/\/[^/]/.test(address) && !address.includes('{{args.'))
    f.out.push(
      diagnosticAt(f.here('address'), `${f.kind} address ${address} is not a valid URL (http:// or https://)`),
    );
  return address;
}
