import * as http from 'http';
import * as https from 'https';
import { KubeAccess, readKubeconfig } from './kubeconfig';

type Env = Readonly<Record<string, string | undefined>>;

/** The ready endpoints of one Service: `ip:port` for the named Service port (EndpointSlice port names are the Service's). */
export type EndpointsReading = { readonly ok: readonly string[] } | { readonly error: string };

/**
 * GET the Service's EndpointSlices (discovery.k8s.io/v1, label kubernetes.io/service-name): one
 * read needing only `list` on endpointslices. Ready endpoints (ready unset counts as ready, as
 * Kubernetes documents) on the port named `portName` ('' for an unnamed single port). Never throws.
 */
export async function readReadyEndpoints(
  kubeconfig: string | undefined,
  env: Env,
  namespace: string,
  service: string,
  portName: string,
): Promise<EndpointsReading> {
  const file = kubeconfig ?? env.KUBECONFIG?.split(':')[0];
  if (!file) return { error: 'no kubeconfig: set verify.aws.kubeconfig in rollgen.yaml or the KUBECONFIG variable' };
  try {
    const access = readKubeconfig(file, env);
    const selector = encodeURIComponent(`kubernetes.io/service-name=${service}`);
    const url = `${access.server.replace(/\/+$/, '')}/apis/discovery.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/endpointslices?labelSelector=${selector}`;
    const res = await get(url, access);
    if (res.status !== 200)
      return { error: `the Kubernetes API answered ${res.status} for the EndpointSlices of ${namespace}/${service}` };
    return { ok: readyAddresses(JSON.parse(res.body), portName) };
  } catch (e) {
    return { error: `reading the EndpointSlices of ${namespace}/${service}: ${(e as Error).message}` };
  }
}

interface Slice {
  readonly ports?: readonly { name?: string; port?: number }[];
  readonly endpoints?: readonly { addresses?: string[]; conditions?: { ready?: boolean } }[];
}

function readyAddresses(list: { items?: readonly Slice[] }, portName: string): string[] {
  const out = new Set<string>();
  for (const s of list.items ?? []) {
    const port = (s.ports ?? []).find((p) => (p.name ?? '') === portName)?.port;
    if (port === undefined) continue;
    for (const e of s.endpoints ?? [])
      if (e.conditions?.ready !== false) for (const ip of e.addresses ?? []) out.add(`${ip}:${port}`);
  }
  return [...out].sort();
}

function get(url: string, a: KubeAccess): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  const client = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const r = client.request(
      u,
      {
        method: 'GET',
        headers: { accept: 'application/json', ...(a.token ? { authorization: `Bearer ${a.token}` } : {}) },
        timeout: 15_000,
        ...(u.protocol === 'https:'
          ? {
              rejectUnauthorized: !a.insecure,
              ...(a.ca ? { ca: a.ca } : {}),
              ...(a.cert ? { cert: a.cert } : {}),
              ...(a.key ? { key: a.key } : {}),
            }
          : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error('no answer within 15s')));
    r.on('error', reject);
    r.end();
  });
}
