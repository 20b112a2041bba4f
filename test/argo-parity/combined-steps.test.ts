import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { runCli } from '../helpers/cli';
import { lineOf, podTemplate, service, tempSources } from './sources';

/**
 * Argo steps that hold several fields (issue 28, item 1), and what Argo holds where rollgen used to
 * let it pass: a pause or experiment before the first step, an analysis with no action step.
 */
const sources = tempSources('rollgen-combined-');

const apisixRoute = `apiVersion: apisix.apache.org/v2
kind: ApisixRoute
metadata:
  name: shop-route
spec:
  http:
    - name: shop-main
      match:
        paths: ["/*"]
      backends:
        - serviceName: shop-stable
          servicePort: 80
        - serviceName: shop-canary
          servicePort: 80
          weight: 0
`;
const template = `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: healthy
spec:
  metrics:
    - name: up
      provider:
        prometheus:
          address: http://127.0.0.1:9
          query: vector(1)
      successCondition: result[0] >= 1
`;

/** Argo's APISIX example, in other words: a Rollout `shop` with these steps (and the config, if any). */
function shop(steps: string, config?: string, extra = ''): { dir: string; rollout: string } {
  const rollout = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: shop
spec:
  replicas: 5
${podTemplate('shop')}  strategy:
    canary:
      canaryService: shop-canary
      stableService: shop-stable
${extra}      trafficRouting:
        managedRoutes:
          - name: debug-header
        apisix:
          route:
            name: shop-route
            rules: [shop-main]
      steps:
${steps}`;
  const dir = sources({
    'rollout.yaml': rollout,
    'stable.yaml': service('shop-stable', 'shop'),
    'canary.yaml': service('shop-canary', 'shop'),
    'route.yaml': apisixRoute,
    'template.yaml': template,
  });
  if (config) fs.writeFileSync(`${dir}/rollgen.yaml`, config);
  return { dir, rollout };
}

const combined = `        - setCanaryScale:
            replicas: 1
          setHeaderRoute:
            name: debug-header
            match:
              - headerName: trace
                headerValue: {exact: debug}
        - pause: {}
        - setWeight: 20
        - setHeaderRoute:
            name: debug-header
          setCanaryScale:
            matchTrafficWeight: true
          pause: {duration: 30}
        - setWeight: 60
`;

test('GIVEN setCanaryScale and setHeaderRoute in one step (and a pause with them) WHEN planned THEN one rollgen step does both, the pause is the gate after it', async () => {
  const { dir } = shop(combined);
  const plan = await runCli(['plan', 'src'], dir);
  expect(plan.stderr).toBe('');
  expect(plan.code).toBe(0);
  const rows = plan.stdout.split('\n').slice(2, 7).join('\n');
  expect(rows).toMatch(
    new RegExp(
      [
        '^start +- +- +- +- +- +manual',
        '1 +1 +5 +0% +trace=debug +- +manual',
        '2 +1 +5 +20% +trace=debug +- +automatic',
        '3 +1 +5 +20% +- +- +after 30s',
        '4 +3 +5 +60% +- +- +automatic$',
      ].join('\n'),
    ),
  );
  // The rendered step 1 runs one canary pod and routes the header to it.
  const render = await runCli(['render', 'src', '--step', '1'], dir);
  expect(render.code).toBe(0);
  expect(render.stdout).toMatch(/name: shop-canary\n(.*\n)*? {2}replicas: 1\n/);
  expect(render.stdout).toContain(
    'exprs:\n          - subject:\n              scope: Header\n              name: trace\n            op: Equal\n            value: debug\n      backends:\n        - serviceName: shop-canary',
  );
});

test('GIVEN a step with setWeight and pause together WHEN validated THEN refused at the second, as Argo refuses it', async () => {
  const { dir, rollout } = shop(`        - setWeight: 10\n          pause: {}\n`);
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(rollout, 'pause: {}')}:18: a step may hold only one of setWeight, pause, experiment and analysis (as Argo), this one has setWeight and pause; split it into 2 steps`,
  );
});

test('GIVEN setCanaryScale and an analysis in one step WHEN validated THEN warned at the analysis: Argo would not wait for it, rollgen does', async () => {
  const { dir, rollout } = shop(
    `        - setCanaryScale: {replicas: 2}\n          analysis: {templates: [{templateName: healthy}]}\n        - setWeight: 50\n`,
  );
  const r = await runCli(['plan', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(rollout, 'analysis: {templates')}:21: warning: Argo ends a step with setCanaryScale once its canary pods are ready, without waiting for the analysis in the same step; rollgen waits for the analysis before the next step`,
  );
  expect(r.stdout).toMatch(/^1 +2 +5 +0% +- +- +automatic \+ analysis healthy$/m);
});

const automatic = 'apps:\n  - source: src\n    output: out\n    gates:\n      firstStep: automatic\n';

test.each([
  ['pause: {}', `        - pause: {}\n        - setWeight: 50\n`],
  ['pause: {duration: 1m}', `        - pause: {duration: 1m}\n        - setWeight: 50\n`],
  ['experiment:', `        - experiment: {templates: [{name: c, specRef: canary}]}\n        - setWeight: 50\n`],
])(
  'GIVEN a first `%s` under gates.firstStep: automatic WHEN planned THEN the start waits for a person, as Argo holds there',
  async (_, steps) => {
    const { dir } = shop(steps, automatic);
    const r = await runCli(['plan', 'src'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^start +- +- +- +- +- +manual$/m);
    expect(r.stderr).not.toContain('already waits for approval');
  },
);

test('GIVEN no pause before the first step under gates.firstStep: automatic WHEN planned THEN the start stays automatic', async () => {
  const { dir } = shop(`        - setWeight: 50\n`, automatic);
  expect((await runCli(['plan', 'src'], dir)).stdout).toMatch(/^start +- +- +- +- +- +automatic$/m);
});

test('GIVEN `steps: [analysis]` WHEN planned THEN step 1 runs no canary pod (as Argo) and its gate waits for the analysis before promotion', async () => {
  const { dir, rollout } = shop(`        - analysis:\n            templates: [{templateName: healthy}]\n`);
  const r = await runCli(['plan', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^1 +0 +5 +0% +- +- +automatic \+ analysis healthy$/m);
  expect(r.stdout).toContain('step 1 gate: step analysis healthy');
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(rollout, '- analysis:') + 1}:13: warning: an analysis before any`,
  );
});

test('GIVEN a background analysis and no steps WHEN planned THEN step 1 is the full canary and the promotion waits for the analysis, warned at it', async () => {
  const extra = `      analysis:\n        templates: [{templateName: healthy}]\n`;
  const { dir, rollout } = shop('', undefined, extra);
  const text = rollout.replace('      steps:\n', '');
  fs.writeFileSync(`${dir}/src/rollout.yaml`, text);
  const r = await runCli(['plan', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^1 +5 +5 +100% +- +- +automatic \+ analysis healthy$/m);
  expect(r.stdout).toContain('step 1 gate: background analysis healthy');
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(text, '      analysis:') + 1}:9: warning: a background analysis with no steps`,
  );
});

test('GIVEN `steps: [analysis]` with a web metric WHEN `analyze --step 1` runs THEN the analysis is measured at that gate (it said "no analysis gates this step")', async () => {
  const server = http.createServer((_, res) => res.end(JSON.stringify({ healthy: 1 })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const { dir } = shop(`        - analysis:\n            templates: [{templateName: web-check}]\n`);
    fs.writeFileSync(
      `${dir}/src/web-check.yaml`,
      `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: web-check
spec:
  metrics:
    - name: healthy
      count: 1
      successCondition: result == 1
      provider:
        web:
          url: http://127.0.0.1:${port}/health
          jsonPath: "{$.healthy}"
`,
    );
    const r = await runCli(['analyze', 'src', '--step', '1'], dir);
    expect(r.stdout).toMatch(/^src rollout shop step 1 step analysis: Successful/m);
    expect(r.stdout).toMatch(/healthy \(web\): Successful/);
    expect(r.code).toBe(0);
  } finally {
    server.close();
  }
});
