/**
 * A blue-green postPromotionAnalysis whose metric has no count, driven by scheduled `rollgen pr` runs
 * against a real Prometheus with healthy series: as in Argo (analysis/analysis.go: such a metric is
 * measured until it fails, so the AnalysisRun never completes), the switch step's gate never passes,
 * whatever its scaleDownDelaySeconds. The same metric with a count passes and the rollout finishes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseStore } from '../../src/flow/analysis-store';
import { runCli } from '../helpers/cli';
import { FlowWorld } from '../helpers/flow-world';
import { bumpImage, commitAll, git } from '../helpers/git-repo';
import { PrometheusServer, describeWithPrometheus, startPrometheus } from '../helpers/prometheus';

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'argo-blue-green', 'web');
const CONFIG = 'apps:\n  - source: apps/web\n    output: deploy/web\n    gates: {firstStep: automatic}\n';

const rollout = `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: web
spec:
  replicas: 3
  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  strategy:
    blueGreen:
      activeService: web
      previewService: web-preview
      scaleDownDelaySeconds: 60
      postPromotionAnalysis:
        templates: [{templateName: error-rate}]
        args: [{name: service, value: web}]
`;

const templates = (address: string, count: string) => `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: error-rate
spec:
  args:
    - name: service
  metrics:
    - name: error-rate
      interval: 1m${count}
      failureCondition: result[0] > 0.05
      failureLimit: 0
      provider:
        prometheus:
          address: ${address}
          query: |
            sum(rate(http_requests_total{service="{{args.service}}",code=~"5.."}[5m])) /
            sum(rate(http_requests_total{service="{{args.service}}"}[5m]))
`;

let prom: PrometheusServer;
let w: FlowWorld;

/** The blue-green example under rollgen, a new revision committed; `count` is the metric's count line, if any. */
async function blueGreenWorld(count: string): Promise<FlowWorld> {
  const world = new FlowWorld([], CONFIG);
  const dir = path.join(world.repo, 'apps', 'web');
  fs.mkdirSync(dir, { recursive: true });
  for (const f of ['deployment.yaml', 'services.yaml']) fs.copyFileSync(path.join(EXAMPLE, f), path.join(dir, f));
  fs.writeFileSync(path.join(dir, 'rollout.yaml'), rollout);
  fs.writeFileSync(path.join(dir, 'analysis-templates.yaml'), templates(prom.address, count));
  commitAll(world.repo, 'web', world.now);
  await world.pr();
  world.merge(world.openPr('rollgen/web/adopt').number);
  await world.pr();
  world.confirmSelect('web'); // an Argo app: a person confirms the selector switch
  await world.pr();
  bumpImage(world.repo, 'web', '2.54', world.now);
  return world;
}

/** One scheduled run a minute, `runs` times or until `done`. */
async function schedule(runs: number, done: () => boolean): Promise<void> {
  for (let i = 0; i < runs && !done(); i++) {
    const r = await w.pr();
    expect(r.code).toBe(0);
    w.later(60);
  }
}

const merged = () =>
  w.fake.pulls.filter((p) => p.merged && p.branch.startsWith('rollgen/web/')).map((p) => p.branch.split('/')[2]);

/** The analysis check run on the commit that landed the switch (step 2). */
function switchCheckRun() {
  const number = w.fake.pulls.find((p) => p.branch === 'rollgen/web/step-2')!.number;
  const landing = git(w.repo, ['log', '--format=%H', '--grep', `Merge #${number}`]).trim();
  return w.fake.runs.get(landing)![0];
}

describeWithPrometheus('blue-green postPromotionAnalysis with a metric without count', () => {
  beforeAll(async () => {
    prom = await startPrometheus([
      { metric: 'http_requests_total', labels: { service: 'web', code: '200' }, value: (i) => i * 99 },
      { metric: 'http_requests_total', labels: { service: 'web', code: '500' }, value: (i) => i },
    ]);
  });
  afterAll(async () => prom?.stop());
  afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

  test('healthy series: the switch gate never passes (the check run stays in progress), so promotion never comes', async () => {
    w = await blueGreenWorld('');
    await schedule(30, () => merged().includes('promote'));
    expect(merged()).toContain('step-2');
    expect(merged()).not.toContain('promote');
    const run = switchCheckRun();
    expect(run).toMatchObject({ status: 'in_progress' });
    // Measured every interval, all passing: the metric goes on and the analysis stays Running.
    const [record] = Object.values(parseStore(run.output!.text));
    expect(record.metrics[0].successful).toBeGreaterThan(20);
    expect(record.metrics[0].failed).toBe(0);
  });

  test('plan, the warning and rollgen analyze say the same: the switch gate never passes (analyze exits 5)', async () => {
    w = await blueGreenWorld('');
    const plan = await runCli(['plan', 'apps/web'], w.repo);
    expect(plan.stdout).toContain(
      '  error-rate (prometheus): failure: result[0] > 0.05; no count: never completes, so this gate never passes; every 60s',
    );
    expect(plan.stderr).toContain(
      'apps/web/analysis-templates.yaml:9:7: warning: metric "error-rate" has an interval and no count: in the analysis gating step 2 (switch) it is measured until it fails and never completes (as in Argo), so that gate never passes and the rollout waits there until you promote or abort it; add count\n',
    );
    const analyze = await runCli(['analyze', 'apps/web', '--step', '2', '--no-wait'], w.repo);
    expect(analyze.stdout).toContain('web rollout web step 2 step analysis: Running');
    expect(analyze.stderr).toContain(
      'analysis Running: rollout web step 2 step analysis never completes: metric "error-rate" has no count, so (as in Argo) it is measured until it fails and the gate never passes; add count',
    );
    expect(analyze.code).toBe(5);
  });

  test('the same metric with count 2: the switch gate passes and the rollout finishes', async () => {
    w = await blueGreenWorld('\n      count: 2');
    await schedule(30, () => merged().includes('cleanup'));
    expect(merged()).toEqual(expect.arrayContaining(['step-2', 'promote', 'cleanup']));
    expect(switchCheckRun()).toMatchObject({ status: 'completed', conclusion: 'success' });
  });
});
