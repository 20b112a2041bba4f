import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { git } from '../helpers/git-repo';
import { lineOf, podTemplate, service, tempSources } from './sources';

/**
 * Argo intent that was lost without a word (issue 28): the 30 s scale-down defaults with traffic
 * routing, and notification subscriptions that nothing sends under rollgen.
 */
const sources = tempSources('rollgen-argo-defaults-');

const routeFile = `apiVersion: apisix.apache.org/v2
kind: ApisixRoute
metadata:
  name: api
spec:
  http:
    - name: main
      match:
        paths: ["/*"]
      backends:
        - serviceName: api
          servicePort: 80
        - serviceName: api-canary
          servicePort: 80
          weight: 0
`;

function api(canaryFields: string, { routed = true, annotations = '' } = {}): { dir: string; rollout: string } {
  const routing = routed
    ? `      canaryService: api-canary\n      stableService: api\n      trafficRouting:\n        apisix:\n          route:\n            name: api\n            rules: [main]\n`
    : '';
  const rollout = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: api
${annotations}spec:
  replicas: 4
${podTemplate('api')}  strategy:
    canary:
${routing}${canaryFields}      steps:
        - setWeight: 25
        - pause: {}
`;
  const files: Record<string, string> = { 'rollout.yaml': rollout };
  if (routed)
    Object.assign(files, {
      'stable.yaml': service('api', 'api'),
      'canary.yaml': service('api-canary', 'api'),
      'route.yaml': routeFile,
    });
  const dir = sources(files);
  return { dir, rollout };
}

const removalLine = (dir: string) =>
  runCli(['plan', 'src'], dir).then((r) => {
    expect(r.code).toBe(0);
    return r.stdout.split('\n').find((l) => l.startsWith('removal:')) ?? '(none)';
  });

test.each([
  ['nothing written', '', 'after promotion: after 30s; after an abort: after 30s'],
  [
    'scaleDownDelaySeconds: 5',
    '      scaleDownDelaySeconds: 5\n',
    'after promotion: after 5s; after an abort: after 30s',
  ],
  [
    'abortScaleDownDelaySeconds: 0',
    '      abortScaleDownDelaySeconds: 0\n',
    'after promotion: after 30s; after an abort: manual',
  ],
  [
    'dynamicStableScale + abortScaleDownDelaySeconds: 10',
    '      dynamicStableScale: true\n      abortScaleDownDelaySeconds: 10\n',
    'after promotion: automatic; after an abort: after 10s',
  ],
])(
  'GIVEN an Argo canary with traffic routing and %s WHEN planned THEN the removal waits as Argo does',
  async (_, fields, expected) => {
    expect(await removalLine(api(fields).dir)).toContain(expected);
  },
);

test('GIVEN dynamicStableScale without abortScaleDownDelaySeconds, or a basic canary WHEN planned THEN no removal delay (Argo scales down at once)', async () => {
  expect(await removalLine(api('      dynamicStableScale: true\n').dir)).toBe('(none)');
  expect(await removalLine(api('', { routed: false }).dir)).toBe('(none)');
});

test('GIVEN a routed Argo canary with no delay written WHEN aborted in local git mode THEN the canary workloads stay 30 s, then go', async () => {
  const { dir } = api('');
  git(dir, ['init', '-q', '-b', 'main']);
  const commit = (msg: string) => {
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-qm', msg]);
  };
  commit('api');
  const at = (s: number) => ({ now: () => new Date(Date.now() + s * 1000) });
  const run = async (args: string[], s = 0) => runCli([...args, 'src', 'out', '--commit'], dir, '', at(s));
  for (let i = 0; i < 2; i++) expect((await run(['advance'])).code).toBe(0); // adopt, then select by track
  const file = path.join(dir, 'src', 'rollout.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('agnhost:2.53', 'agnhost:2.54'));
  commit('api 2.54');
  expect((await run(['advance'])).code).toBe(0); // step 1
  expect((await run(['abort'])).stdout).toContain('canary workloads are removed by the next advance');
  expect(fs.existsSync(path.join(dir, 'out', 'deployment-api-canary.yaml'))).toBe(true);
  const held = await run(['advance']);
  expect(held.code).toBe(1);
  expect(held.stderr).toMatch(/src: remove waits for a timed gate of 30s from \S+: \d+s left/);
  const later = await run(['advance'], 120);
  expect(later.code).toBe(0);
  expect(fs.existsSync(path.join(dir, 'out', 'deployment-api-canary.yaml'))).toBe(false);
});

test('GIVEN notifications.argoproj.io/subscribe annotations on a Rollout WHEN validated THEN warned at each: nothing sends them under rollgen', async () => {
  const annotations =
    '  annotations:\n    notifications.argoproj.io/subscribe.on-rollout-completed.slack: deploys\n    team: payments\n';
  const { dir, rollout } = api('', { annotations });
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe(
    `src/rollout.yaml:${lineOf(rollout, 'notifications.argoproj.io')}:69: warning: notifications.argoproj.io/subscribe.on-rollout-completed.slack subscribes to Argo Rollouts notifications, which no controller sends under rollgen: each step is a pull request, so subscribe there instead (watch the repository, add reviewers or pr.labels in rollgen.yaml, or notify on the check runs of its pull requests); remove the annotation\n`,
  );
});
