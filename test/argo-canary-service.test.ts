import { runCli } from './helpers/cli';
import { exampleApps } from './helpers/example-app';
import * as fs from 'fs';
import * as path from 'path';

/** A first Argo user whose Rollout names a Service that is not there is told what to do (issue 29 item 4). */
const apps = exampleApps('rollgen-argo-canary-service-');

test('a missing canaryService: write it as Argo requires (a copy of the stable one), or leave canaryService out', async () => {
  apps.example('argo-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace('canaryService: echoserver-preview', 'canaryService: shop-canary'),
  );
  const r = await runCli(['plan', 'src'], apps.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(
    'src/rollout.yaml:14:22: rollout echoserver: canary Service "shop-canary" is not among the app\'s manifests; ' +
      'add a Service "shop-canary" with the ports and selector of Service "echoserver" (Argo requires the canaryService ' +
      'it names to exist; example: README "What gets rendered"), or leave canaryService out and rollgen makes ' +
      '"echoserver-canary" from "echoserver"\n',
  );
});

test('leaving canaryService out, as the message says, makes <stable>-canary', async () => {
  apps.example('argo-nginx/echoserver', 'rollout.yaml', (t) => t.replace(/\n\s+canaryService: echoserver-preview/, ''));
  fs.rmSync(path.join(apps.dir(), 'src', 'service-preview.yaml'));
  const r = await runCli(['render', 'src', '--step', '1'], apps.dir());
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/kind: Service\nmetadata:\n {2}name: echoserver-canary\n/);
});

test('a missing previewService (blue-green) says how to write it', async () => {
  apps.example('argo-blue-green/web', 'rollout.yaml', (t) =>
    t.replace('previewService: web-preview', 'previewService: web-next'),
  );
  const r = await runCli(['plan', 'src'], apps.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    'preview Service "web-next" is not among the app\'s manifests; add a Service "web-next" with the ports and selector of Service "web" (Argo requires the previewService it names to exist',
  );
});

test('README says which format makes the canary Service, with an example of the one Argo requires', () => {
  const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## What gets rendered'), readme.indexOf('## Blue-green'));
  expect(section).toContain('Kruise: rollgen makes `<service>-canary`');
  expect(section).toMatch(/Argo: the `canaryService` you name must exist/);
  expect(section).toContain('name: shop-canary');
});
