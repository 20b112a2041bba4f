import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli';
import { buildOutput, useAppDir, rollgenClean } from '../helpers/rollout-dir';
import { validateAgainstSchemas } from '../helpers/schema';
import { lineOf, podTemplate, service, tempSources } from './sources';

/**
 * Argo's Job metrics, the GitOps way (issue 28 item 5): the Job is committed with the step whose
 * analysis runs it, named per rollout, revision, gate and metric, and removed by the next commit.
 */
const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'argo-job-metric', 'checkout');
const app = useAppDir('rollgen-job-metric-', EXAMPLE);
const sources = tempSources('rollgen-job-metric-src-');

interface Built {
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string>; labels?: Record<string, string> };
  spec: { template: { spec: { containers: { command: string[] }[] } } };
}

/** `rollgen advance`, then the output as Argo CD / Flux would apply it (kustomize), validated; its Jobs. */
async function advanceAndBuildJobs(): Promise<Built[]> {
  await rollgenClean(app.dir, ['advance', 'src', 'out']);
  const built = buildOutput(app.dir);
  const objects = built === undefined ? [] : parseAllDocuments(built).map((d) => d.toJS() as Built);
  if (built !== undefined) validateAgainstSchemas(built);
  return objects.filter((o) => o.kind === 'Job');
}

const bumpImage = (tag: string) => {
  const file = path.join(app.dir, 'src', 'deployment.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/podinfo:[\w.]+/, `podinfo:${tag}`));
};
const canaryRevision = () =>
  (parse(app.read('rollgen-status.yaml')) as { rollouts: { canaryRevision: string }[] }).rollouts[0].canaryRevision;

test('the Job is committed with the step its analysis gates, args substituted, and gone from the next commit', async () => {
  expect(await advanceAndBuildJobs()).toEqual([]); // first deploy
  expect(await advanceAndBuildJobs()).toEqual([]); // selector switch
  bumpImage('6.7.1');
  const [job, ...more] = await advanceAndBuildJobs(); // step 1
  expect(more).toEqual([]);
  expect(app.status()).toMatchObject({ phase: 'Progressing', step: 1 });
  expect(job.metadata.name).toBe(`checkout-${canaryRevision()}-step-1-smoke`);
  expect(job.metadata.namespace).toBe('shop');
  expect(job.metadata.labels).toEqual({ team: 'checkout' });
  // After the workloads (wave 0) and their routes (wave 1): the Job measures a routed canary.
  expect(job.metadata.annotations).toMatchObject({
    'argocd.argoproj.io/sync-wave': '2',
    'rollgen.dev/analysis-metric': 'step-1/smoke-test/smoke',
  });
  expect(job.spec.template.spec.containers[0].command).toEqual([
    'curl',
    '--fail',
    '--retry',
    '3',
    'http://checkout-canary.shop.svc.cluster.local/readyz',
  ]);
  const analyze = await runCli(['analyze', 'src', '--step', '1'], app.dir);
  expect(analyze.code).toBe(0);
  expect(analyze.stdout).toContain(
    `job metric "smoke" is measured by the cluster, not by rollgen: Job ${job.metadata.name} is committed with step 1`,
  );
  for (let step = 2; step <= 3; step++) {
    expect(await advanceAndBuildJobs()).toEqual([]);
    expect(app.status()).toMatchObject({ step });
  }
});

test('a new revision during the step gets a Job of its own name, so the rerun never meets the old Job', async () => {
  await advanceAndBuildJobs();
  await advanceAndBuildJobs();
  bumpImage('6.7.1');
  const [first] = await advanceAndBuildJobs();
  bumpImage('6.7.2');
  const jobs = await advanceAndBuildJobs(); // the new revision restarts the canary at step 1
  expect(app.status()).toMatchObject({ step: 1 });
  expect(jobs.map((j) => j.metadata.name)).toEqual([`checkout-${canaryRevision()}-step-1-smoke`]);
  expect(jobs[0].metadata.name).not.toBe(first.metadata.name);
});

const rollout = (analysis: string) => `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: api
spec:
  replicas: 4
${podTemplate('api')}  strategy:
    canary:
      canaryService: api-canary
      stableService: api
${analysis}      steps:
        - setWeight: 25
        - analysis:
            templates: [{templateName: smoke}]
        - setWeight: 50
        - pause: {}
`;

const jobTemplate = (metricFields: string, jobFields = '', args = '') => `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: smoke
spec:
${args}  metrics:
    - name: smoke
${metricFields}      provider:
        job:
          spec:
${jobFields}            template:
              spec:
                containers:
                  - name: smoke
                    image: busybox:1.36
                    command: [wget, -q, http://api-canary/]
                restartPolicy: Never
`;

const apiSources = (template: string, analysis = '') =>
  sources({
    'rollout.yaml': rollout(analysis),
    'stable.yaml': service('api', 'api'),
    'canary.yaml': service('api-canary', 'api'),
    'template.yaml': template,
  });

test('what one committed Job cannot do is refused at its line: count, interval, failureLimit, dryRun, a TTL, a restarting pod, a secret arg', async () => {
  const text = jobTemplate(
    '      count: 3\n      interval: 1m\n      failureLimit: 1\n',
    '            ttlSecondsAfterFinished: 60\n',
    '  args:\n    - name: token\n      valueFrom: {secretKeyRef: {name: s, key: k}}\n',
  )
    .replace('restartPolicy: Never', 'restartPolicy: Always')
    .replace('http://api-canary/', "'http://api-canary/?t={{args.token}}'");
  const dir = apiSources(text, '');
  const r = await runCli(['plan', 'src'], dir);
  expect(r.code).toBe(2);
  // At the value of the field (its key's line), or at the Job for what spans it.
  const at = (needle: string) => new RegExp(`src/template\\.yaml:${lineOf(text, needle)}:\\d+: `).source;
  expect(r.stderr).toMatch(
    new RegExp(`${at('count: 3')}job metric "smoke": count 3: Argo creates a new Job for each measurement`),
  );
  expect(r.stderr).toMatch(new RegExp(`${at('interval: 1m')}job metric "smoke": interval:`));
  expect(r.stderr).toMatch(new RegExp(`${at('failureLimit: 1')}job metric "smoke": failureLimit:`));
  expect(r.stderr).toMatch(
    new RegExp(`${at('ttlSecondsAfterFinished')}ttlSecondsAfterFinished would delete the committed Job`),
  );
  expect(r.stderr).toMatch(
    new RegExp(`${at('containers:')}a Job needs spec.template.spec.restartPolicy Never or OnFailure`),
  );
  // (the Job's body starts on the line after `job:`)
  expect(r.stderr).toMatch(
    new RegExp(
      `src/template\\.yaml:${lineOf(text, 'job:') + 1}:\\d+: the Job uses the secret arg \\{\\{args.token\\}\\}: its value would be committed to git`,
    ),
  );
});

test('a dry-run job metric is refused at the metric; conditions and initialDelay are warned as unused', async () => {
  const text = jobTemplate('      initialDelay: 30s\n      successCondition: result == true\n');
  const dry = apiSources(text.replace('  metrics:', '  dryRun: [{metricName: smoke}]\n  metrics:'));
  const r = await runCli(['plan', 'src'], dry);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('job metric "smoke" cannot run as dryRun');
  const warned = await runCli(['plan', 'src'], apiSources(text));
  expect(warned.code).toBe(0);
  expect(warned.stderr).toContain(
    `src/template.yaml:${lineOf(text, 'initialDelay')}:21: warning: initialDelay is not used by a job metric`,
  );
  expect(warned.stderr).toContain(
    `src/template.yaml:${lineOf(text, 'successCondition')}:25: warning: successCondition is not used by a job metric`,
  );
  expect(warned.stderr).not.toContain('has no successCondition or failureCondition');
  expect(warned.stdout).toContain('smoke (job): a Job committed with the step');
});

test('a background job metric runs a Job at every step from startingStep, each named for its step, within 63 characters', async () => {
  const long = 'a-smoke-test-whose-name-is-long-enough-to-overflow-a-kubernetes-label';
  const text = jobTemplate('').replace('- name: smoke', `- name: ${long}`);
  const background = '      analysis:\n        templates: [{templateName: smoke}]\n        startingStep: 2\n';
  const dir = apiSources(text, background);
  const names: string[][] = [];
  for (const step of [1, 2]) {
    const r = await runCli(['render', 'src', '--step', String(step)], dir);
    expect(r.stderr).toBe('');
    names.push(
      parseAllDocuments(r.stdout)
        .map((d) => d.toJS() as Built)
        .filter((o) => o.kind === 'Job')
        .map((o) => o.metadata.name),
    );
  }
  // Step 1: its own analysis; step 2: the background analysis (from startingStep 2).
  expect(names[0]).toHaveLength(1);
  expect(names[1]).toHaveLength(1);
  for (const n of names.flat()) expect(n).toMatch(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
  expect(names[0][0]).toMatch(/^api-[0-9a-f]{10}-step-1-a-smoke/);
  expect(names[1][0]).toMatch(/^api-[0-9a-f]{10}-background-step-2-a-smoke/);
});
