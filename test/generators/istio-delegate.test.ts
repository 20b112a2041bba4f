import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { lineOf } from '../helpers/example-app';

/**
 * Istio `delegate` routes: the simulator follows a root route into its delegate VirtualService
 * (both matches must fit, as Istio merges them), and a rollout that selects a delegate route is
 * refused at the route, saying delegates are not weighted (Argo neither, argo-rollouts#4205).
 */
const BASE = path.join(__dirname, '..', 'golden', 'istio', 'argo-host-mode', 'source');

const VIRTUAL_SERVICES = `apiVersion: networking.istio.io/v1beta1
kind: VirtualService
metadata:
  name: reviews
  namespace: shop
spec:
  hosts:
    - reviews.example.com
  http:
    - name: primary
      match:
        - uri: {prefix: /api}
      route:
        - destination: {host: reviews.shop.svc.cluster.local, port: {number: 80}}
    - name: fallback
      delegate: {name: reviews-delegate}
---
apiVersion: networking.istio.io/v1beta1
kind: VirtualService
metadata:
  name: reviews-delegate
  namespace: shop
spec:
  http:
    - match:
        - uri: {prefix: /docs}
      route:
        - destination: {host: reviews.shop.svc.cluster.local, port: {number: 80}}
`;

let dir = '';
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-istio-delegate-'));
  fs.cpSync(BASE, path.join(dir, 'app'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'app', 'virtualservice.yaml'), VIRTUAL_SERVICES);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The rollout with its `virtualService:` block replaced. */
function selecting(block: string): void {
  const file = path.join(dir, 'app', 'rollout.yaml');
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, text.replace(/( {10}virtualService:\n)(?: {12}.*\n)+/, `$1${block}`));
}

const simulate = (...args: string[]) => runCli(['simulate', 'app', '--step', '1', ...args], dir);

test('a request the delegate serves is routed by the delegate VirtualService', async () => {
  selecting('            name: reviews\n            routes: [primary]\n');
  const r = await simulate('--path', '/docs/a');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(
    'rule: VirtualService reviews http route fallback, delegated to VirtualService reviews-delegate http route #0\n',
  );
  expect(r.stdout).toMatch(/100\.0% +service reviews -> reviews\n/);
});

test('a request no delegate rule fits falls past the delegating route', async () => {
  selecting('            name: reviews\n            routes: [primary]\n');
  const r = await simulate('--path', '/other');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('no route matches this request');
});

test('selecting a delegate route is refused at the route, saying delegates are not weighted', async () => {
  selecting('            name: reviews\n            routes: [fallback]\n');
  const r = await runCli(['validate', 'app'], dir);
  expect(r.code).toBe(2);
  const line = lineOf(VIRTUAL_SERVICES, 'delegate: {name: reviews-delegate}');
  expect(r.stderr).toMatch(
    new RegExp(
      `^app/virtualservice.yaml:${line}:\\d+: .*http route fallback delegates to VirtualService "reviews-delegate"; rollgen \\(as Argo\\) does not weight delegate routes`,
      'm',
    ),
  );
  expect(r.stderr).not.toContain('has no destination');
});

test('naming the delegate VirtualService, as the refusal says, weights its route', async () => {
  selecting('            name: reviews-delegate\n');
  expect((await runCli(['validate', 'app'], dir)).code).toBe(0);
  const r = await simulate('--path', '/docs');
  expect(r.stdout).toMatch(/80\.0% +service reviews -> reviews\n +20\.0% +service reviews-canary/);
});
