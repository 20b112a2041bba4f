import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli';
import { FlowWorld } from '../helpers/flow-world';
import { commitAll } from '../helpers/git-repo';
import { BIN } from '../helpers/rollout-dir';
import { hasKubectl } from '../helpers/schema';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

/** A repo whose rollgen.yaml is `config`, with `fixture` copied to apps/<app>, committed. */
function world(config: string, fixture: string, app: string): FlowWorld {
  const world = new FlowWorld([], config);
  fs.cpSync(path.join(FIXTURES, fixture), path.join(world.repo, 'apps', app), { recursive: true });
  commitAll(world.repo, `${app} source`, world.now);
  return world;
}

/** The objects a PR writes, by file name under deploy/<app>. */
function prObjects(number: number, app: string): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const c of w.fake.changesOf(number))
    if (
      c.content !== null &&
      /^deploy\/[^/]+\/(?!kustomization|rollgen-status)/.test(c.path) &&
      c.path.startsWith(`deploy/${app}/`)
    )
      out[path.basename(c.path)] = parse(c.content);
  return out;
}

const image = (o: Record<string, unknown>) =>
  (o as { spec: { template: { spec: { containers: { image: string }[] } } } }).spec.template.spec.containers[0].image;

/** The adoption PR's objects; then a person merges it and the selector switch follows, as in production. */
async function adopt(app: string): Promise<Record<string, Record<string, unknown>>> {
  await w.pr();
  const pr = w.openPr(`rollgen/${app}/adopt`);
  const objects = prObjects(pr.number, app);
  w.merge(pr.number);
  await w.pr(); // opens the selector switch: an Argo app's waits for a person (docs/migration.md)
  w.confirmSelect(app);
  await w.pr();
  return objects;
}

/** `rollgen validate` after one change to a source file: its exit status and stderr. */
async function validateAfter(file: string, from: string, to: string) {
  const f = path.join(w.repo, file);
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(from, to));
  return runCli(['validate'], w.repo);
}

/** Commits a change to one source file, runs rollgen pr and returns step 1's objects. */
async function stepOneAfter(app: string, file: string, change: (text: string) => string) {
  fs.writeFileSync(path.join(w.repo, file), change(fs.readFileSync(path.join(w.repo, file), 'utf8')));
  commitAll(w.repo, `${app} new version`, w.now);
  await w.pr();
  return prObjects(w.openPr(`rollgen/${app}/step-1`).number, app);
}

const describeKubectl = hasKubectl() ? describe : describe.skip;
if (!hasKubectl()) console.warn('kubectl not on PATH: the kustomize source tests are skipped (install kubectl)');

describeKubectl('a source with a kustomization is built the way kustomize builds it', () => {
  const CONFIG = 'apps:\n  - source: apps/demo/overlays/prod\n    name: demo\n    output: deploy/demo\n';

  test('the rollouts-demo overlay over ../base: namespace, images and patches reach rollgen pr', async () => {
    w = world(CONFIG, 'rollouts-demo-overlay', 'demo');
    const adopted = await adopt('demo');
    const namespaces = Object.values(adopted).map((o) => (o.metadata as { namespace?: string }).namespace);
    expect(namespaces.length).toBeGreaterThanOrEqual(4);
    expect(new Set(namespaces)).toEqual(new Set(['demo-prod']));
    const deployment = adopted['deployment-rollouts-demo.yaml'];
    expect(image(deployment)).toBe('argoproj/rollouts-demo:yellow');
    expect((deployment.spec as { replicas: number }).replicas).toBe(10);

    // A new image in the overlay starts the canary: stable keeps yellow, the canary runs green.
    const step1 = await stepOneAfter('demo', 'apps/demo/overlays/prod/kustomization.yaml', (t) =>
      t.replace('newTag: yellow', 'newTag: green'),
    );
    expect(image(step1['deployment-rollouts-demo-canary.yaml'])).toBe('argoproj/rollouts-demo:green');
    expect(image(parse(fs.readFileSync(path.join(w.repo, 'deploy/demo/deployment-rollouts-demo.yaml'), 'utf8')))).toBe(
      'argoproj/rollouts-demo:yellow',
    );
    expect((step1['ingress-rollouts-demo-canary.yaml'].metadata as { namespace: string }).namespace).toBe('demo-prod');
  });

  test('an error in the base points at the base file and line; files outside the repo are refused', async () => {
    w = world(CONFIG, 'rollouts-demo-overlay', 'demo');
    const r = await validateAfter('apps/demo/base/rollout.yaml', '- setWeight: 60', '- setWeigth: 60');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^apps\/demo\/base\/rollout\.yaml:31:11: .*setWeigth/m);

    const overlay = path.join(w.repo, 'apps/demo/overlays/prod/kustomization.yaml');
    fs.writeFileSync(
      overlay,
      fs.readFileSync(overlay, 'utf8').replace('  - ../../base', '  - ../../base\n  - ../../../../outside'),
    );
    const outside = await runCli(['validate'], w.repo);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(
      /^apps\/demo\/overlays\/prod\/kustomization\.yaml:7:5: resource "..\/..\/..\/..\/outside" (does not exist|is outside the repository)/m,
    );
  });

  test('without kustomize or kubectl on PATH the error names what to install', () => {
    w = world(CONFIG, 'rollouts-demo-overlay', 'demo');
    const r = spawnSync(process.execPath, [BIN, 'validate'], {
      cwd: w.repo,
      encoding: 'utf8',
      env: { PATH: '/nonexistent' },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /neither kustomize nor kubectl is on PATH: install kubectl \(its `kubectl kustomize`\) or kustomize/,
    );
  });
});

describe('rollgen.yaml build: a command whose output is the source (a Helm chart)', () => {
  const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n    build: sh apps/{name}/chart/render.sh\n';

  test('rollgen pr renders what the build prints; a values change starts a canary', async () => {
    w = world(CONFIG, 'helm-like', 'echo');
    expect(image((await adopt('echo'))['deployment-echoserver.yaml'])).toMatch(/agnhost:2\.53$/);
    const step1 = await stepOneAfter('echo', 'apps/echo/chart/values.yaml', () => 'tag: "2.54"\n');
    expect(image(step1['deployment-echoserver-canary.yaml'])).toMatch(/agnhost:2\.54$/);
  });

  test('an error in a built object points at the template; a failing build names its command', async () => {
    w = world(CONFIG, 'helm-like', 'echo');
    const r = await validateAfter('apps/echo/chart/templates/rollout.yaml', 'weight: 60', 'weight: "sixty"');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^apps\/echo\/chart\/templates\/rollout\.yaml:\d+:\d+: .*weight/m);

    fs.writeFileSync(path.join(w.repo, 'rollgen.yaml'), CONFIG.replace('render.sh', 'missing.sh'));
    const failed = await runCli(['validate'], w.repo);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/build command `sh apps\/echo\/chart\/missing.sh` failed \(exit \d+\)/);
  });
});
