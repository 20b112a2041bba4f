import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';
import { canaryShare, generatorsOf, loadAppFrom, objectsAt } from './helpers/golden-app';
import { expectNoDeadBackends, lifecycleTransitions } from './helpers/transitions';

/**
 * Several providers of one rollout: `simulate` follows a request through the chain (an nginx
 * Ingress in front of an SMI mesh), not the first provider that matches. With the TrafficSplit's
 * root being the stable Service, the nginx split and the mesh split compound: 20 % then 20 % of
 * the rest is 36 % on canary pods.
 */
const SOURCE = path.join(__dirname, 'golden', 'smi', 'argo-with-nginx', 'source');

function chainedApp(): { dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-chain-'));
  fs.cpSync(SOURCE, path.join(dir, 'src'), { recursive: true });
  const rollout = path.join(dir, 'src', 'rollout.yaml');
  fs.writeFileSync(
    rollout,
    fs.readFileSync(rollout, 'utf8').replace('rootService: web-root', '{}').replace('smi:\n          {}', 'smi: {}'),
  );
  return { dir };
}

const request = { host: 'web.example.com', path: '/', headers: {}, cookies: {}, query: {} };

test('an nginx canary in front of a TrafficSplit on the stable Service compounds the two splits', () => {
  const { dir } = chainedApp();
  const app = loadAppFrom('src', path.join(dir, 'src'), dir);
  expect(app.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(generatorsOf(app).map((g) => g.id)).toEqual(['ingress-nginx', 'smi']);
  expect(canaryShare(objectsAt(app, { kind: 'step', step: 1 }), generatorsOf(app), request)).toBeCloseTo(0.36, 6);
  expect(canaryShare(objectsAt(app, { kind: 'step', step: 2 }), generatorsOf(app), request)).toBeCloseTo(0.75, 6);
  // A request addressed to the Service inside the mesh meets the TrafficSplit alone.
  expect(
    canaryShare(objectsAt(app, { kind: 'step', step: 1 }), generatorsOf(app), { ...request, host: 'web' }),
  ).toBeCloseTo(0.2, 6);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The same app with Istio in place of SMI: a mesh VirtualService for host `web`, or one bound to a gateway only. */
function nginxInFrontOfIstio(gateways: readonly string[]): { dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-chain-istio-'));
  fs.cpSync(SOURCE, path.join(dir, 'src'), { recursive: true });
  fs.rmSync(path.join(dir, 'src', 'service-web-root.yaml'));
  const rollout = path.join(dir, 'src', 'rollout.yaml');
  const istio = 'istio:\n          virtualService:\n            name: web\n';
  fs.writeFileSync(rollout, fs.readFileSync(rollout, 'utf8').replace('smi:\n          rootService: web-root\n', istio));
  const vs = {
    apiVersion: 'networking.istio.io/v1beta1',
    kind: 'VirtualService',
    metadata: { name: 'web', namespace: 'shop' },
    spec: {
      hosts: ['web'],
      ...(gateways.length > 0 ? { gateways } : {}),
      http: [
        {
          route: [
            { destination: { host: 'web' }, weight: 100 },
            { destination: { host: 'web-canary' }, weight: 0 },
          ],
        },
      ],
    },
  };
  fs.writeFileSync(path.join(dir, 'src', 'virtualservice.yaml'), JSON.stringify(vs));
  return { dir };
}

test.each([
  [[], 0.36],
  [['mesh'], 0.36],
  [['shop/public'], 0.2],
])('an nginx canary in front of an Istio VirtualService bound to gateways %j: %d on the canary', (gateways, share) => {
  const { dir } = nginxInFrontOfIstio(gateways);
  const app = loadAppFrom('src', path.join(dir, 'src'), dir);
  expect(app.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect(generatorsOf(app).map((g) => g.id)).toEqual(['istio', 'ingress-nginx']);
  expect(canaryShare(objectsAt(app, { kind: 'step', step: 1 }), generatorsOf(app), request)).toBeCloseTo(share, 6);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('rollgen simulate prints the whole chain of rules', async () => {
  const { dir } = chainedApp();
  const r = await runCli(['simulate', 'src', '--step', '1', '--host', 'web.example.com'], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/rule: canary-weight 20\/100 -> TrafficSplit web \(root web\)/);
  expect(r.stdout).toMatch(/36\.0%\s+service web-canary -> web-canary/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('through the nginx -> Istio chain, no adjacent pair of states sends a request to a backend without ready pods', () => {
  const { dir } = nginxInFrontOfIstio([]);
  const app = loadAppFrom('src', path.join(dir, 'src'), dir);
  expectNoDeadBackends(app, lifecycleTransitions(app.rollouts[0].plan.steps.length), [
    request,
    { ...request, host: 'web' },
  ]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('rollgen simulate shows a Traefik mirror copy beside the pods that answer', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-mirror-'));
  fs.cpSync(path.join(__dirname, 'golden', 'traefik', 'argo-mirror', 'source'), path.join(dir, 'src'), {
    recursive: true,
  });
  const r = await runCli(['simulate', 'src', '--step', '1', '--host', 'web.example.com'], dir);
  expect(r.stdout).toMatch(/100\.0%\s+service web -> web\n/);
  expect(r.stdout).toMatch(/25\.0%\s+mirror copy to service web-canary -> web-canary\n/);
  fs.rmSync(dir, { recursive: true, force: true });
});
