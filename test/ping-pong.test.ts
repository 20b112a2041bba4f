import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments } from 'yaml';
import type { SimRequest } from '../src/contract/generator';
import type { KubeObject } from '../src/model/kube';
import { simulateRequest } from '../src/simulate/simulate';
import { ClusterMoment, fluxMoments, syncMoments } from '../src/simulate/transition';
import { deadPods, generatorsOf, loadAppFrom } from './helpers/golden-app';
import { BIN, makeAppDir, rollgenClean, validateOutputLater, validateQueued } from './helpers/rollout-dir';

/**
 * Argo pingPong through the CLI: first deploy, a rollout, clean-up, then a second rollout that
 * swaps the Services back. Each commit's output is then walked with the simulator: no request
 * reaches a backend without ready pods, and no Service that carries traffic changes its selector,
 * under both Argo CD prune orders and the Flux split. The commands run in-process (the same main()
 * as bin/rollgen); the lost-status test below runs the built bin/rollgen (`npm run build` first).
 */
const GOLDEN = path.join(__dirname, 'golden');
const UPSTREAM = path.join(__dirname, 'fixtures', 'argo-ping-pong');
const demo = { image: /rollouts-demo:\w+/, tags: ['rollouts-demo:green', 'rollouts-demo:yellow'], file: 'app.yaml' };
/** The golden cases, then Argo's own ping-pong e2e examples recreated (ALB, two Ingresses, ALB beside an Istio mesh, Istio host split). */
const CASES = [
  {
    name: 'aws-alb',
    source: path.join(GOLDEN, 'aws-alb', 'argo-ping-pong', 'source'),
    image: /agnhost:[\w.]+/,
    tags: ['agnhost:2.54', 'agnhost:2.55'],
    file: 'rollout.yaml',
    workload: 'checkout',
  },
  {
    name: 'istio',
    source: path.join(GOLDEN, 'istio', 'argo-ping-pong', 'source'),
    image: /nginx:[\w.-]+/,
    tags: ['nginx:1.28-alpine', 'nginx:1.29-alpine'],
    file: 'rollout.yaml',
    workload: 'catalog',
  },
  ...[
    ['alb-one-ingress', 'tea'],
    ['alb-two-ingresses', 'coffee'],
    ['alb-beside-mesh', 'juice'],
    ['istio-host-split', 'soda'],
  ].map(([name, workload]) => ({ name: `upstream ${name}`, source: path.join(UPSTREAM, name), ...demo, workload })),
];

interface Commit {
  readonly phase: string;
  readonly stable: string;
  readonly objects: KubeObject[];
  /** What advance printed. */
  readonly said: string;
}

/** Every object file of out/ (the status file and the kustomization are never applied). */
function outputObjects(dir: string): KubeObject[] {
  const out = path.join(dir, 'out');
  return fs
    .readdirSync(out)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml' && f !== 'rollgen-status.yaml')
    .sort()
    .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(out, f), 'utf8')).map((d) => d.toJS() as KubeObject));
}

/** Advances until the rollout is healthy again, recording each commit. */
async function advanceToHealthy(dir: string, extra: readonly string[], commits: Commit[]): Promise<void> {
  for (let i = 0; i < 12; i++) {
    const said = await rollgenClean(dir, ['advance', 'src', 'out', ...extra]);
    const s = parse(fs.readFileSync(path.join(dir, 'out', 'rollgen-status.yaml'), 'utf8')).rollouts[0];
    const phase = `${s.phase}${s.draining ? ' draining' : ''} ${s.step}`;
    commits.push({ phase, stable: s.pingPong, objects: outputObjects(dir), said });
    if (s.phase === 'Healthy' && s.draining === undefined) return;
  }
  throw new Error('the rollout did not become healthy');
}

function setTag(dir: string, file: string, image: RegExp, tag: string): void {
  const f = path.join(dir, 'src', file);
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(image, tag));
}

/** First deploy (two commits), then one rollout per tag; the output after each rollout is built with kustomize and validated. */
async function lifecycle(c: (typeof CASES)[number], extra: readonly string[] = []): Promise<Commit[]> {
  const dir = makeAppDir('rollgen-pingpong-', c.source);
  try {
    const commits: Commit[] = [];
    await advanceToHealthy(dir, extra, commits);
    for (const tag of c.tags) {
      setTag(dir, c.file, c.image, tag);
      await advanceToHealthy(dir, extra, commits);
      validateOutputLater(dir);
    }
    validateQueued(); // one kubectl run for both outputs
    return commits;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const request: SimRequest = { path: '/', headers: {}, cookies: {}, query: {} };

/** Problems at one moment: a share on a backend without ready pods, or a Service with traffic whose selector changed. */
function problems(app: ReturnType<typeof loadAppFrom>, before: readonly KubeObject[], moment: ClusterMoment): string[] {
  const split = simulateRequest(moment.objects, generatorsOf(app), request, moment.ready);
  const out = deadPods(split).map((p) => `${moment.label}: ${p.service} has no ready pods`);
  const selector = (objs: readonly KubeObject[], name: string) =>
    JSON.stringify(objs.find((o) => o.kind === 'Service' && o.metadata.name === name)?.spec?.['selector' as never]);
  for (const s of split?.services ?? [])
    if (s.share > 0 && selector(before, s.service) !== selector(moment.objects, s.service))
      out.push(`${moment.label}: ${s.service} carries ${s.share} while its selector changes`);
  return out;
}

function walk(
  app: ReturnType<typeof loadAppFrom>,
  commits: readonly Commit[],
  moments: typeof syncMoments,
): { problems: string[]; checked: number } {
  const found: string[] = [];
  let checked = 0;
  // From the first healthy commit on: adoption narrows each selector to the pods that already carry the side label.
  for (let i = 2; i < commits.length; i++) {
    for (const m of moments(commits[i - 1].objects, commits[i].objects)) {
      found.push(...problems(app, commits[i - 1].objects, m).map((p) => `${commits[i].phase}: ${p}`));
      checked++;
    }
  }
  return { problems: found, checked };
}

describe.each(CASES)('ping-pong: $name', (c) => {
  const app = loadAppFrom('src', c.source, path.dirname(c.source));
  let oneCommit: Commit[] = [];
  beforeAll(async () => void (oneCommit = await lifecycle(c)));

  const n = app.rollouts[0].plan.steps.length;
  const rollout = (side: string) => [
    ...Array.from({ length: n }, (_, i) => `Progressing ${i + 1} ${side}`),
    `Promoting ${n} ${side}`,
  ];
  const promoting = 2 + n;
  // Argo keeps the old stable pods 30 s after the promotion (scaleDownDelaySeconds' default): the clean-up drains first.
  const cleanedUp = promoting + 2;

  test('two rollouts through the CLI: the stable Service swaps to pong and back to ping', () => {
    expect(oneCommit.map((x) => `${x.phase} ${x.stable}`)).toEqual([
      'Adopting 0 ping',
      'Healthy 0 ping',
      ...rollout('ping'),
      'Healthy draining 0 pong',
      'Healthy 0 pong',
      ...rollout('pong'),
      'Healthy draining 0 ping',
      'Healthy 0 ping',
    ]);
    // After each clean-up one Deployment runs, on the side of the Service that is stable.
    const sides = (x: Commit) =>
      x.objects
        .filter((o) => o.kind === 'Deployment')
        .map((d) => (d.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels)
        .map((l) => l['rollgen.dev/ping-pong']);
    expect(sides(oneCommit[cleanedUp])).toEqual(['pong']);
    expect(sides(oneCommit[oneCommit.length - 1])).toEqual(['ping']);
  });

  test('promotion sends every request to the canary Service, with the canary at full size', () => {
    expect(oneCommit[promoting].said).toMatch(/-> promoting \(all traffic to the canary Service, canary at full size/);
    const split = simulateRequest(oneCommit[promoting].objects, generatorsOf(app), request)!;
    expect(split.services.filter((s) => s.share > 0).map((s) => s.service)).toEqual([`${c.workload}-pong`]);
    expect(split.pods.map((p) => p.deployment)).toEqual([`${c.workload}-canary`]);
  });

  test('Argo CD, both prune orders: no dead backend, no selector change under traffic', () => {
    const result = walk(app, oneCommit, syncMoments);
    expect(result.problems).toEqual([]);
    expect(result.checked).toBeGreaterThan(oneCommit.length);
  });

  test('Flux split with two-commit removal: no dead backend, no selector change under traffic', async () => {
    const commits = await lifecycle(c, ['--removal', 'two-commits']);
    expect(commits.map((x) => x.phase)).toContain('Healthy draining 0');
    const result = walk(app, commits, (a, b) => fluxMoments(a, b));
    expect(result.problems).toEqual([]);
    expect(result.checked).toBeGreaterThan(commits.length);
  });

  // Negative control: without the promotion commit the stable pods would leave ping while it still serves.
  test('skipping the promotion commit is caught', () => {
    const skipped = [oneCommit[0], oneCommit[1], oneCommit[promoting - 1], oneCommit[cleanedUp]];
    expect(walk(app, skipped, syncMoments).problems.length).toBeGreaterThan(0);
    expect(walk(app, skipped, (a, b) => fluxMoments(a, b)).problems.length).toBeGreaterThan(0);
  });
});

test('a lost status file is rebuilt with the stable side read from the stable pods (bin/rollgen)', async () => {
  const c = CASES[1];
  const dir = makeAppDir('rollgen-pingpong-lost-', c.source);
  try {
    const advance = () => rollgenClean(dir, ['advance', 'src', 'out']);
    await advance();
    await advance();
    setTag(dir, c.file, c.image, c.tags[0]);
    for (let i = 0; i < 5; i++) await advance(); // steps 1-2, promote, clean-up (draining, then removal): pong is stable
    setTag(dir, c.file, c.image, c.tags[1]);
    await advance(); // step 1 of the second rollout weighs ping
    const status = path.join(dir, 'out', 'rollgen-status.yaml');
    fs.rmSync(status);
    const r = spawnSync(BIN, ['advance', 'src', 'out'], { cwd: dir, encoding: 'utf8' });
    expect(r.stderr).toMatch(/state rebuilt from the rendered objects: catalog: step 1 of 2/);
    expect(parse(fs.readFileSync(status, 'utf8')).rollouts[0]).toMatchObject({ step: 2, pingPong: 'pong' });
    const side = (file: string) =>
      parse(fs.readFileSync(path.join(dir, 'out', file), 'utf8')).spec.template.metadata.labels[
        'rollgen.dev/ping-pong'
      ];
    expect([side('deployment-catalog.yaml'), side('deployment-catalog-canary.yaml')]).toEqual(['pong', 'ping']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
