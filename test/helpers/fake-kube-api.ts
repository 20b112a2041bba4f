import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';

/**
 * A loopback Kubernetes API serving EndpointSlices (discovery.k8s.io/v1) of Services, selected by
 * the `kubernetes.io/service-name` label as kube-proxy and rollgen select them; a bearer token is required.
 */
export class FakeKubeApi {
  readonly token = 'kube-token-0123456789';
  readonly requests: string[] = [];
  /** `<ns>/<service>` -> ready pod IPs (and not-ready ones), on the Service port named `http` at 8080. */
  readonly endpoints = new Map<string, { ready: string[]; notReady?: string[] }>();
  private server?: http.Server;

  reset(): void {
    this.requests.length = 0;
    this.endpoints.clear();
  }

  static async start(): Promise<FakeKubeApi> {
    const k = new FakeKubeApi();
    k.server = http.createServer((req, res) => k.answer(req, res));
    await new Promise<void>((r) => k.server!.listen(0, '127.0.0.1', r));
    return k;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server!.close(() => r()));
  }

  /** A kubeconfig pointing at this server with its token; returns its path. */
  writeKubeconfig(dir: string): string {
    const port = (this.server!.address() as AddressInfo).port;
    const file = path.join(dir, 'kubeconfig');
    fs.writeFileSync(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        'current-context: ci',
        'clusters: [{name: eks, cluster: {server: "http://127.0.0.1:' + port + '"}}]',
        'users: [{name: rollgen-reader, user: {token: ' + this.token + '}}]',
        'contexts: [{name: ci, context: {cluster: eks, user: rollgen-reader}}]',
        '',
      ].join('\n'),
    );
    return file;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    this.requests.push(`${req.method} ${url.pathname}?${url.searchParams.toString()}`);
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      res.statusCode = 401;
      return void res.end('{"kind":"Status","code":401}');
    }
    const m = /^\/apis\/discovery\.k8s\.io\/v1\/namespaces\/([^/]+)\/endpointslices$/.exec(url.pathname);
    const service = /^kubernetes\.io\/service-name=(.+)$/.exec(url.searchParams.get('labelSelector') ?? '')?.[1];
    if (req.method !== 'GET' || !m || !service) {
      res.statusCode = 404;
      return void res.end('{"kind":"Status","code":404}');
    }
    const e = this.endpoints.get(`${m[1]}/${service}`) ?? { ready: [] };
    const endpoint = (ip: string, ready: boolean) => ({ addresses: [ip], conditions: { ready } });
    res.end(
      JSON.stringify({
        kind: 'EndpointSliceList',
        apiVersion: 'discovery.k8s.io/v1',
        items: [
          {
            metadata: { name: `${service}-abcde`, namespace: m[1], labels: { 'kubernetes.io/service-name': service } },
            addressType: 'IPv4',
            ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
            endpoints: [
              ...e.ready.map((ip) => endpoint(ip, true)),
              ...(e.notReady ?? []).map((ip) => endpoint(ip, false)),
            ],
          },
        ],
      }),
    );
  }
}
