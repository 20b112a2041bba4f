import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli';
import { exampleApps, lineOf } from '../helpers/example-app';

/**
 * The generated canary Service of a LoadBalancer stable Service: a copy as Kruise makes it would
 * give the canary pods a public load balancer (and DNS name) of their own, past the Ingress. rollgen
 * renders a NodePort copy without the load-balancer fields and annotations, and says so at the type.
 */
const apps = exampleApps('rollgen-lb-copy-');

const LOAD_BALANCER = `  annotations:
    service.beta.kubernetes.io/aws-load-balancer-type: nlb
    external-dns.alpha.kubernetes.io/hostname: echo.example.com
    team: web
spec:
  type: LoadBalancer
  loadBalancerSourceRanges: [10.0.0.0/8]
`;

test('a LoadBalancer stable Service gets a NodePort canary copy without load-balancer fields, warned at its type', async () => {
  const text = apps.example('kruise-nginx/echoserver', 'service.yaml', (t) => t.replace(/^spec:\n/m, LOAD_BALANCER));
  const r = await runCli(['render', 'src', '--step', '1'], apps.dir());
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/service.yaml:${lineOf(text, 'type: LoadBalancer')}:9: warning: rollout rollouts-demo: the canary Service "echoserver-canary" is rendered as a NodePort copy`,
  );
  const services = parseAllDocuments(r.stdout)
    .map((d) => d.toJS())
    .filter((o) => o.kind === 'Service');
  const canary = services.find((s) => s.metadata.name === 'echoserver-canary');
  const stable = services.find((s) => s.metadata.name === 'echoserver');
  expect(canary.spec.type).toBe('NodePort');
  expect(canary.spec.loadBalancerSourceRanges).toBeUndefined();
  expect(Object.keys(canary.metadata.annotations).sort()).toEqual(['argocd.argoproj.io/sync-options', 'team']);
  // The stable Service is the user's and stays as written.
  expect(stable.spec.type).toBe('LoadBalancer');
  expect(stable.metadata.annotations['service.beta.kubernetes.io/aws-load-balancer-type']).toBe('nlb');
});

test('a ClusterIP stable Service is copied as it is, without a word', async () => {
  apps.example('kruise-nginx/echoserver', 'service.yaml', (t) => t);
  const r = await runCli(['render', 'src', '--step', '1'], apps.dir());
  expect([r.code, r.stderr]).toEqual([0, '']);
});
