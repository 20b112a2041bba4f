/**
 * The health gate read from Argo CD's Application API (a loopback server speaking its JSON): the
 * synced revision must be a commit carrying the step and the app Synced and Healthy; Degraded or a
 * failed sync aborts; no token or an unreachable Argo CD waits, never passes.
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { FlowWorld } from '../helpers/flow-world';
import { commitAll, git } from '../helpers/git-repo';

const ONE_APP = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n    gates: {unpaused: automatic}\n';
let app: Record<string, unknown> = {};
let seen: { url?: string; auth?: string } = {};
let server: http.Server;
let w: FlowWorld;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen = { url: req.url, auth: req.headers.authorization };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(app));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

async function gatedAt(k: number, server = `http://127.0.0.1:${(serverAddress() as AddressInfo).port}`) {
  w = await FlowWorld.echoAtStep(ONE_APP, k);
  fs.appendFileSync(
    path.join(w.repo, 'rollgen.yaml'),
    `health:\n  argocd: {server: '${server}', application: 'prod-{name}'}\n`,
  );
  commitAll(w.repo, 'argo cd gate', w.now);
  w.env = { ...w.env, ARGOCD_AUTH_TOKEN: 'argo-token' };
}
const serverAddress = () => server.address();
const landing = () => git(w.repo, ['log', '-1', '--format=%H', '--', 'deploy/echo']).trim();
const application = (revision: string, sync: string, health: string, phase = 'Succeeded') => ({
  metadata: { name: 'prod-echo' },
  status: {
    sync: { status: sync, revision },
    health: { status: health },
    operationState: { phase, finishedAt: '2026-03-01T08:00:00Z', syncResult: { revision } },
  },
});

test('Synced and Healthy at the step commit merges the automatic step; the request names the app and carries the token', async () => {
  await gatedAt(3);
  app = application('0'.repeat(40), 'Synced', 'Healthy');
  let r = await w.pr();
  expect(r.stdout).toContain('waiting for health: Argo CD application prod-echo to sync this step');
  app = application(landing(), 'Synced', 'Progressing');
  r = await w.pr();
  expect(r.stdout).toContain('(Synced, Progressing)');
  app = application(landing(), 'Synced', 'Healthy');
  await w.pr();
  expect(w.fake.pulls.find((p) => p.branch === 'rollgen/echo/step-4')!.merged).toBe(true);
  expect(seen).toEqual({ url: '/api/v1/applications/prod-echo', auth: 'Bearer argo-token' });
});

test('Degraded at the step commit aborts by itself', async () => {
  await gatedAt(3);
  app = application(landing(), 'Synced', 'Degraded');
  await w.pr();
  const abort = w.fake.pulls.find((p) => p.branch === 'rollgen/echo/abort')!;
  expect(abort.merged).toBe(true);
  expect(abort.body).toContain('Argo CD application prod-echo is Degraded');
});

test('no token, or Argo CD unreachable: the step waits and says why; nothing merges', async () => {
  await gatedAt(3);
  app = application(landing(), 'Synced', 'Healthy');
  w.env = { ...w.env, ARGOCD_AUTH_TOKEN: undefined };
  let r = await w.pr();
  expect(r.stdout).toContain('set ARGOCD_AUTH_TOKEN to an Argo CD API token');
  fs.rmSync(w.repo, { recursive: true, force: true });
  await gatedAt(3, 'http://127.0.0.1:1');
  r = await w.pr();
  expect(r.stdout).toMatch(
    /waiting for health: Argo CD \(Argo CD at http:\/\/127\.0\.0\.1:1\/api\/v1\/applications\/prod-echo: .*ECONNREFUSED/,
  );
  expect(w.fake.pulls.find((p) => p.branch === 'rollgen/echo/step-4')!.merged).toBe(false);
});
