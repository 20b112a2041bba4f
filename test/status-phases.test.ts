import * as fs from 'fs';
import * as path from 'path';
import { StatusViewJson, StatusWorld } from './helpers/status-world';

/**
 * `rollgen status` at every phase of a rollout, for each strategy (canary, blue-green, ping-pong,
 * Kruise's partition; Kruise and Argo), driven as a user drives it in local git mode (`--commit`). Each phase's text is
 * a golden file (test/status-phases/<case>/<nn>-<phase>.txt; UPDATE_GOLDEN=1 rewrites them), and
 * each view is checked against the output rollgen rendered, parsed from its files: the images,
 * revisions and replicas it shows on each track are those the rendered Deployments carry, the
 * traffic it shows is what `simulate` routes there, and an aborted rollout shows what it held back.
 */
const ROOT = path.join(__dirname, 'status-phases');
const EXAMPLES = path.join(__dirname, '..', 'examples');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

const CASES = [
  { name: 'kruise-canary', example: path.join(EXAMPLES, 'kruise-nginx', 'echoserver'), strategy: 'canary' },
  { name: 'argo-canary', example: path.join(EXAMPLES, 'argo-nginx', 'echoserver'), strategy: 'canary' },
  {
    name: 'kruise-blue-green',
    example: path.join(EXAMPLES, 'kruise-blue-green', 'echoserver'),
    strategy: 'blue-green',
  },
  { name: 'argo-blue-green', example: path.join(EXAMPLES, 'argo-blue-green', 'web'), strategy: 'blue-green' },
  {
    name: 'kruise-partition',
    example: path.join(__dirname, 'golden', 'ingress-nginx', 'kruise-v1beta1-partition', 'source'),
    strategy: 'partition',
  },
  {
    name: 'argo-ping-pong',
    example: path.join(__dirname, 'golden', 'istio', 'argo-ping-pong', 'source'),
    strategy: 'canary',
  },
] as const;

interface Snapshot {
  readonly label: string;
  readonly text: string;
  readonly view: StatusViewJson;
}

/** Every phase in turn: snapshots of the text and data of `status`, each checked against the rendered output. */
async function walk(w: StatusWorld): Promise<Snapshot[]> {
  const snaps: Snapshot[] = [];
  const workload = await workloadOf(w);
  const snap = async (label: string) => {
    w.later(10); // the view is read a little after the commit that landed the state
    const view = await w.view();
    await checkAgainstRendered(w, view, workload);
    snaps.push({
      label: `${String(snaps.length + 1).padStart(2, '0')}-${label}`,
      text: await w.ok(['status', 'shop']),
      view,
    });
  };
  await snap('not-deployed');
  await w.ok(['advance', 'shop', '--commit']);
  await snap('adopting');
  await w.ok(['advance', 'shop', '--commit']);
  await snap('healthy');
  w.bumpImage();
  await snap('new-revision');
  await w.ok(['advance', 'shop', '--commit']);
  for (let step = 1; ; step++) {
    const view = await w.view();
    await snap(`step-${step}-${view.gate?.kind ?? 'none'}-gate`);
    if (step === view.steps) break;
    await w.ok(['promote', 'shop', '--commit']);
  }
  await w.ok(['promote', 'shop', '--full', '--commit']);
  await snap('promoting');
  // Ping-pong's clean-up replaces the old stable pods: it waits scaleDownDelaySeconds itself.
  w.later(3600);
  await w.ok(['advance', 'shop', '--commit']);
  if ((await w.view()).phase === 'Draining') {
    // Argo's scaleDownDelaySeconds (30 s by default with traffic routing): routes leave the canary
    // first, its pods go in the next commit, once the delay has passed.
    await snap('draining');
    w.later(3600);
    await w.ok(['advance', 'shop', '--commit']);
  }
  await snap('cleaned-up');
  w.bumpImage();
  await w.ok(['advance', 'shop', '--commit']);
  const steps = (await w.view()).steps;
  if (steps > 1) await w.ok(['promote', 'shop', '--commit']);
  await w.ok(['abort', 'shop', '--commit']);
  if ((await w.view()).phase === 'Draining') {
    // Argo blue-green keeps the preview pods abortScaleDownDelaySeconds: their removal is the next commit, after it.
    await snap('aborted-draining');
    w.later(3600);
    await w.ok(['advance', 'shop', '--commit']);
  }
  await snap('aborted');
  await w.ok(['retry', 'shop', '--commit']);
  w.pauseRollout();
  await snap('held');
  return snaps;
}

async function workloadOf(w: StatusWorld): Promise<string> {
  return JSON.parse(await w.ok(['plan', 'shop', '--json'])).apps[0].rollouts[0].workload;
}

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const imagesOf = (d: Obj | undefined) =>
  d ? (d.spec.template.spec.containers as Obj[]).map((c) => ({ container: c.name, image: c.image })) : null;

/** Every track the view shows agrees with the Deployments rollgen rendered, read back from the output's files. */
async function checkAgainstRendered(w: StatusWorld, view: StatusViewJson, workload: string): Promise<void> {
  const objects = w.rendered() as Obj[];
  const deployment = (name: string) => objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
  const stable = deployment(workload);
  const canary = deployment(`${workload}-canary`);
  const revision = (d: Obj | undefined) => d?.metadata.annotations?.['rollgen.dev/revision'] ?? null;
  if (view.phase === 'NotDeployed') return expect(objects).toEqual([]);
  expect({ images: view.images.stable, revision: view.revisions.stable, replicas: view.replicas.stable }).toEqual({
    images: imagesOf(stable),
    revision: revision(stable),
    replicas: stable!.spec.replicas,
  });
  expect({ images: view.images.canary, revision: view.revisions.canary, replicas: view.replicas.canary }).toEqual({
    images: imagesOf(canary),
    revision: revision(canary),
    replicas: canary?.spec.replicas ?? 0,
  });
  // A live step has canary pods; with none live (no step, not promoting) the output has no canary Deployment.
  if (view.step !== null) expect(canary).toBeDefined();
  else if (view.phase !== 'Promoting' && view.phase !== 'Draining') expect(canary).toBeUndefined();
  await checkTraffic(w, view, workload);
  if (w.statusFile().rollouts[0].phase === 'Aborted') checkAborted(w, view);
  else expect(view.aborted).toBeNull();
}

/** The share the view gives the canary is the share `simulate` routes there (a request no match selects). */
async function checkTraffic(w: StatusWorld, view: StatusViewJson, workload: string): Promise<void> {
  const t = view.traffic;
  if (!t || t.byPods) return;
  const sim = JSON.parse(await w.ok(['simulate', 'shop', '--json']));
  const toCanary = [...sim.pods, ...sim.services.map((s: Obj) => s.pod ?? s)]
    .filter((p: Obj) => p.deployment === `${workload}-canary`)
    .reduce((sum: number, p: Obj) => sum + p.share, 0);
  if (sim.pods.length > 0) expect(toCanary).toBeCloseTo(t.weight / t.weightTotal, 5);
}

/** What an abort held back: the revision recorded, its images (the source still holds them) and the step it reached. */
function checkAborted(w: StatusWorld, view: StatusViewJson): void {
  const recorded = w.statusFile().rollouts[0];
  // While draining, the canary Deployment still runs it; after, the source still holds it.
  expect(view.aborted).toEqual({
    revision: recorded.canaryRevision,
    step: recorded.abortedStep,
    images: view.images.canary ?? view.images.source,
  });
  expect(view.revisions.source).toBe(recorded.canaryRevision);
  expect(view.aborted!.step).toBeGreaterThanOrEqual(1);
}

function check(file: string, actual: string): void {
  if (UPDATE) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  if (!fs.existsSync(file))
    throw new Error(`${file} is missing; run UPDATE_GOLDEN=1 npx jest test/status-phases.test.ts`);
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}

describe.each(CASES)('status at every phase: $name', (c) => {
  let w: StatusWorld;
  let snaps: Snapshot[];
  // Some forty commands per strategy: a shared, loaded machine may need more than the default timeout.
  beforeAll(async () => {
    w = new StatusWorld(c.example, true);
    snaps = await walk(w);
  }, 300_000);
  afterAll(() => w.remove());

  test('each phase reads as its golden file', () => {
    const dir = path.join(ROOT, c.name);
    if (UPDATE) fs.rmSync(dir, { recursive: true, force: true });
    for (const s of snaps) check(path.join(dir, `${s.label}.txt`), s.text);
    if (!UPDATE) expect(fs.readdirSync(dir).sort()).toEqual(snaps.map((s) => `${s.label}.txt`).sort());
  });

  test('the strategy is named as users say it, in text and data', () => {
    for (const s of snaps) expect(s.view.strategy.name).toBe(c.strategy);
    const expected = c.strategy === 'blue-green' ? /^Strategy: +BlueGreen \(/m : /^Strategy: +Canary \(/m;
    for (const s of snaps) expect(s.text).toMatch(expected);
    for (const s of snaps) expect(s.text).not.toContain(' style');
  });

  test('aborted shows the held-back image and the step it reached; promoting shows one revision as stable', () => {
    const aborted = snaps.find((s) => s.view.phase === 'Aborted')!;
    const held = aborted.view.aborted!;
    for (const image of held.images!) expect(aborted.text).toContain(`${image.image} (aborted`);
    expect(aborted.text).toMatch(new RegExp(`^  Step: +-/\\d+ \\(aborted at step ${held.step}\\)$`, 'm'));
    expect(aborted.text).toContain(`, aborted ${held.revision}, `);
    const promoting = snaps.find((s) => s.view.phase === 'Promoting')!;
    const { stable, canary } = promoting.view.revisions;
    // Promotion puts the new revision on the stable Deployment; ping-pong moves traffic first and the stable pods at clean-up.
    if (promoting.view.strategy.pingPong) expect(stable).not.toBe(canary);
    else expect(stable).toBe(canary);
    expect(promoting.text).toContain(`revisions: stable ${stable}, canary ${canary}, `);
  });
});
