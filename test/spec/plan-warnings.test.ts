import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { exampleApps, lineOf } from '../helpers/example-app';

/**
 * What a plan asks of its pods, warned at the step where the canary or stable side could not
 * carry the traffic the step routes (or would carry more than it shows).
 */
const app = exampleApps('rollgen-plan-warnings-');
const example = app.example;

test('GIVEN an Argo setCanaryScale of no pods and a later setWeight WHEN validated THEN warned at setCanaryScale: 1 pod runs, not 0', async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) => t.replace('replicas: 2\n', 'replicas: 0\n'));
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(text, 'replicas: 0')}:13: warning: setCanaryScale gives the canary no pods while a step sends it traffic (setWeight 5)`,
  );
  // Said once, and the plan runs the one pod it says.
  expect(r.stderr.match(/setCanaryScale gives/g)).toHaveLength(1);
  const plan = await runCli(['plan', 'src'], app.dir());
  expect(plan.stdout).toMatch(/^2 +1 +4 +5\/1000 /m);
});

test('GIVEN an Argo setCanaryScale of no pods while the canary takes no traffic WHEN validated THEN no warning', async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace('- setWeight: 5\n', '- setCanaryScale:\n            replicas: 0\n'),
  );
  expect(text).toContain('replicas: 0');
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.stderr).not.toContain('setCanaryScale gives');
});

test('GIVEN partition style whose canary takes every pod at a routed step WHEN planned THEN the plan says the new version serves all traffic, warned at the step; simulate agrees', async () => {
  const text = example('kruise-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace('rolling-style: canary', 'rolling-style: partition'),
  );
  const deployment = path.join(app.dir(), 'src', 'deployment.yaml');
  fs.writeFileSync(deployment, fs.readFileSync(deployment, 'utf8').replace(/replicas: \d+/, 'replicas: 2'));
  const plan = await runCli(['plan', 'src'], app.dir());
  expect(plan.code).toBe(0);
  // 20% of 2 is one pod of each; 60% of 2 is both pods, and no stable pod is left.
  expect(plan.stdout).toMatch(/^1 +1 +1 +20% /m);
  expect(plan.stdout).toMatch(/^3 +2 +0 +all \(no stable pod\) /m);
  expect(plan.stderr).toContain(
    `src/rollout.yaml:${lineOf(text, '- weight: 60')}:11: warning: rollout rollouts-demo: step 3 routes 60% to the canary, but its 2 canary pods are all 2 replicas (partition style): with no stable pod the stable Service selects the canary pods too, so the new version serves all traffic. Add replicas or give the step fewer canary pods\n`,
  );
  const sim = await runCli(['simulate', 'src', '--step', '3'], app.dir());
  const shares = [...sim.stdout.matchAll(/^ +([\d.]+)% +service \S+ -> (\S+)$/gm)].map((m) => [m[2], Number(m[1])]);
  expect(shares.length).toBeGreaterThan(0);
  expect(shares.every(([pods]) => pods === 'echoserver-canary')).toBe(true);
});

test("GIVEN an Argo Rollout with a workloadRef and no spec.replicas WHEN validated THEN warned: Argo runs 1 replica, not the Deployment's", async () => {
  const text = example('argo-nginx/echoserver', 'rollout.yaml', (t) => t.replace(/^ {2}replicas: \d+\n/m, ''));
  const r = await runCli(['validate', 'src'], app.dir());
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    `src/rollout.yaml:${lineOf(text, '    name: echoserver')}:11: warning: rollout echoserver: the Rollout has no spec.replicas, so Argo runs its default of 1 replica, not Deployment "echoserver"'s 5; rollgen renders 1. Set spec.replicas: 5 on the Rollout to keep them`,
  );
  const plan = await runCli(['plan', 'src'], app.dir());
  expect(plan.stdout).toContain('1 replica,');
});

test('GIVEN a step with more traffic on fewer canary pods than the step before WHEN planned THEN warned at that step', async () => {
  const text = example('kruise-nginx/echoserver', 'rollout.yaml', (t) =>
    t.replace('- weight: 60\n', '- weight: 60\n          replicas: 1\n'),
  );
  const r = await runCli(['plan', 'src'], app.dir());
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^3 +1 +5 +60% /m);
  expect(r.stderr).toBe(
    `src/rollout.yaml:${lineOf(text, '- weight: 60')}:11: warning: rollout rollouts-demo: step 3 sends the canary 60% on 1 canary pod, fewer than step 2's 2 at 40%: each canary pod takes a larger share at once. Keep the canary's replicas growing with its traffic\n`,
  );
});
