import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';
import { canaryShare, generatorsOf, loadAppFrom, objectsAt } from './helpers/golden-app';

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

test('rollgen simulate prints the whole chain of rules', async () => {
  const { dir } = chainedApp();
  const r = await runCli(['simulate', 'src', '--step', '1', '--host', 'web.example.com'], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/rule: canary-weight 20\/100 -> TrafficSplit web \(root web\)/);
  expect(r.stdout).toMatch(/36\.0%\s+service web-canary -> web-canary/);
  fs.rmSync(dir, { recursive: true, force: true });
});
