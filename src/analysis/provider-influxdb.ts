import { credentialsOf } from './credentials';
import { ProviderFields, refuseUnknown, textField } from './provider-fields';
import { InfluxDbProvider } from './types';

/**
 * Argo's `provider.influxdb`: a Flux `query` and `profile`, the Secret with `address`, `authToken`
 * and `org` (default `influxdb`). Pure.
 */
export function influxDbProvider(f: ProviderFields): InfluxDbProvider {
  refuseUnknown(f, ['query', 'profile']);
  const profile = textField(f, 'profile', false) ?? 'influxdb';
  return {
    kind: 'influxdb',
    query: textField(f, 'query', true) ?? '',
    // Argo's defaultQueryTimeout.
    timeoutSeconds: 30,
    credentials: credentialsOf(
      profile,
      [
        { key: 'address', required: true, secret: false },
        { key: 'authToken', required: true, secret: true },
        { key: 'org', required: true, secret: false },
      ],
      f.secrets,
    ),
    secretArgs: f.args.secrets,
  };
}
