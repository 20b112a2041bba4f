/**
 * Done-when of issue 10: the Argo Rollout of examples/argo-analysis (a step analysis and a background
 * analysis over Prometheus) goes through its steps against a real Prometheus with healthy series,
 * and aborts by itself with failing series, driven only by `rollgen pr` runs as the scheduled Action
 * makes them (the clock moves between runs; GitHub is the fake).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseStore } from '../../src/flow/analysis-store';
import { FlowWorld } from '../helpers/flow-world';
import { bumpImage, commitAll, git } from '../helpers/git-repo';
import { PrometheusServer, Series, describeWithPrometheus, startPrometheus } from '../helpers/prometheus';

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'argo-analysis', 'shop');
const CONFIG = 'apps:\n  - source: apps/shop\n    output: deploy/shop\n    gates: {firstStep: automatic}\n';

/** The canary Service's requests: `errors` of every 100 fail. */
const traffic = (service: string, errors: number): Series[] => [
  { metric: 'http_requests_total', labels: { service, code: '200' }, value: (i) => i * (100 - errors) },
  { metric: 'http_requests_total', labels: { service, code: '500' }, value: (i) => i * errors },
];

let prom: PrometheusServer;
let w: FlowWorld;

/**
 * The example app in a fresh repository, its templates pointed at this test's Prometheus: the step
 * analysis at `service`'s series, the background analysis at `background`'s.
 */
async function shopWorld(service: string, background = service): Promise<FlowWorld> {
  const world = new FlowWorld([], CONFIG);
  const dir = path.join(world.repo, 'apps', 'shop');
  fs.mkdirSync(dir, { recursive: true });
  for (const f of fs.readdirSync(EXAMPLE)) {
    const text = fs
      .readFileSync(path.join(EXAMPLE, f), 'utf8')
      .replace(/http:\/\/prometheus\.monitoring:9090/g, prom.address)
      // The background analysis's arg comes first in rollout.yaml, the step analysis's second.
      .replace('value: shop-canary', `value: ${background}`)
      .replace('value: shop-canary', `value: ${service}`);
    fs.writeFileSync(path.join(dir, f), text);
  }
  commitAll(world.repo, 'shop', world.now);
  // Taking the app under rollgen is a person's approval, once; from then on only scheduled runs act.
  await world.pr();
  world.merge(world.openPr('rollgen/shop/adopt').number);
  await world.pr();
  world.confirmSelect('shop'); // an Argo app: a person confirms the selector switch
  await world.pr();
  bumpImage(world.repo, 'shop', '6.7.1', world.now);
  return world;
}

/**
 * One scheduled run every `minutes`, until `done` or `max` runs. A run that merged nothing is run
 * again at once (a re-run job): the rerun takes no measurement and opens, commits and records
 * nothing, so measurements and PRs are never duplicated; its requests stay bounded.
 */
async function schedule(minutes: number, max: number, done: () => boolean): Promise<number> {
  let runs = 0;
  while (!done() && runs < max) {
    const r = await w.pr();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    if (!r.calls.some((c) => c.op === 'mergePull')) {
      const rerun = await w.pr();
      // Only a merge the first run's new PR had become due for may follow.
      expect(rerun.writes.filter((c) => c.op !== 'mergePull')).toEqual([]);
      expect(rerun.calls.length).toBeLessThanOrEqual(4);
    }
    runs++;
    w.later(minutes * 60);
  }
  return runs;
}

const merged = () =>
  w.fake.pulls.filter((p) => p.merged && p.branch.startsWith('rollgen/shop/')).map((p) => p.branch.split('/')[2]);
const status = () => fs.readFileSync(path.join(w.repo, 'deploy', 'shop', 'rollgen-status.yaml'), 'utf8');

describeWithPrometheus('an Argo Rollout with step and background analysis, driven by scheduled rollgen pr runs', () => {
  beforeAll(async () => {
    prom = await startPrometheus([...traffic('shop-good', 1), ...traffic('shop-bad', 20)]);
  });
  afterAll(async () => prom?.stop());
  afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

  test('healthy series: every step, promotion and clean-up merge by themselves; measurements recorded once each', async () => {
    w = await shopWorld('shop-good');
    const runs = await schedule(1, 40, () => merged().includes('cleanup'));
    expect(merged()).toEqual(['adopt', 'select', 'step-1', 'step-2', 'step-3', 'promote', 'cleanup']);
    expect(status()).toMatch(/phase: Healthy/);
    // The step analysis lives on the commit that landed step 1: three measurements, no duplicates.
    const step1 = git(w.repo, ['log', '--format=%H', '--grep', `Merge #${pullOf('step-1')}`]).trim();
    const [run] = w.fake.runs.get(step1)!;
    expect(run).toMatchObject({ name: 'rollgen analysis: shop', status: 'completed', conclusion: 'success' });
    const records = Object.values(parseStore(run.output!.text));
    expect(records.map((r) => r.metrics[0])).toEqual([expect.objectContaining({ count: 3, successful: 3 })]);
    // The next step's PR showed them.
    expect(w.fake.pull(pullOf('step-2')).body).toContain('| success-rate | success: result[0] >= 0.95 |');
    // The background analysis ran from step 2 on, on the commit that landed it.
    const step2 = git(w.repo, ['log', '--format=%H', '--grep', `Merge #${pullOf('step-2')}`]).trim();
    const background = Object.entries(parseStore(w.fake.runs.get(step2)![0].output!.text));
    expect(background.map(([key, r]) => [key.split('/')[1], r.metrics[0].name, r.metrics[0].successful > 0])).toEqual([
      ['background', 'error-rate', true],
    ]);
    process.stdout.write(`healthy rollout: ${runs} scheduled runs\n`);
  });

  test('failing series: the step analysis fails past failureLimit and rollgen merges the abort PR itself', async () => {
    w = await shopWorld('shop-bad');
    await schedule(1, 20, () => merged().includes('abort'));
    expect(merged()).toEqual(['adopt', 'select', 'step-1', 'abort']);
    const abort = w.fake.pull(pullOf('abort'));
    expect(abort.body).toMatch(/rollgen aborts: analysis failed: .*failed \(2\) > failureLimit \(1\)/);
    expect(abort.body).toContain('| success-rate |');
    expect(w.fake.pull(pullOf('step-2')).merged).toBe(false);
    expect(status()).toMatch(/phase: Aborted/);
    // Argo keeps the aborted canary 30 s (abortScaleDownDelaySeconds' default with traffic routing): a later PR removes it.
    await schedule(1, 5, () => merged().includes('remove'));
    expect(merged()).toEqual(['adopt', 'select', 'step-1', 'abort', 'remove']);
    // Held: more runs change nothing until a new revision or retry.
    const before = w.fake.calls.length;
    await schedule(1, 3, () => false);
    expect(w.fake.writes().filter((c) => w.fake.calls.indexOf(c) >= before)).toEqual([]);
  });

  test('a background analysis that fails at a later step aborts there', async () => {
    w = await shopWorld('shop-good', 'shop-bad');
    await schedule(1, 20, () => merged().includes('abort'));
    expect(merged()).toEqual(['adopt', 'select', 'step-1', 'step-2', 'abort']);
    expect(w.fake.pull(pullOf('abort')).body).toMatch(
      /analysis failed: error-rate: metric "error-rate" assessed Failed/,
    );
    expect(status()).toMatch(/phase: Aborted/);
  });

  test('Prometheus unreachable: errors until consecutiveErrorLimit, then a clear error that aborts (never a pass)', async () => {
    w = await shopWorld('shop-good');
    const templates = path.join(w.repo, 'apps', 'shop', 'analysis-templates.yaml');
    fs.writeFileSync(templates, fs.readFileSync(templates, 'utf8').replaceAll(prom.address, 'http://127.0.0.1:1'));
    commitAll(w.repo, 'prometheus moved', w.now);
    await schedule(1, 20, () => merged().includes('abort'));
    expect(merged()).toEqual(['adopt', 'select', 'step-1', 'abort']);
    expect(w.fake.pull(pullOf('abort')).body).toMatch(
      /analysis errored: .*consecutiveErrors \(5\) > consecutiveErrorLimit \(4\)/,
    );
  });
});

function pullOf(target: string): number {
  return w.fake.pulls.find((p) => p.branch === `rollgen/shop/${target}`)!.number;
}
