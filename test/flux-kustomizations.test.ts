import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { runCli } from './helpers/cli';
import { hasKubectl, kustomizeBuild } from './helpers/schema';

/**
 * examples/flux: the Flux Kustomization objects and the kustomize split they point at, in the
 * repository layout the README describes (flux/ beside rollgen's deploy/ output). The objects are
 * parsed and their paths checked against the split directories; each split is built with real
 * kustomize at every state of a rollout with two-commit removal.
 */
const EXAMPLES = path.join(__dirname, '..', 'examples');
const FLUX = path.join(EXAMPLES, 'flux');

interface FluxKustomization {
  metadata: { name: string };
  spec: { path: string; wait?: boolean; prune?: boolean; dependsOn?: { name: string }[]; sourceRef: unknown };
}

const objects = parseAllDocuments(fs.readFileSync(path.join(FLUX, 'kustomizations.yaml'), 'utf8')).map(
  (d) => d.toJS() as FluxKustomization & { apiVersion: string; kind: string },
);
const byName = (suffix: string) => objects.find((o) => o.metadata.name.endsWith(suffix))!;

test('workloads wait for readiness, routes depend on workloads, and each path is a split directory of the example', () => {
  expect(objects.map((o) => `${o.apiVersion} ${o.kind}`)).toEqual([
    'kustomize.toolkit.fluxcd.io/v1 Kustomization',
    'kustomize.toolkit.fluxcd.io/v1 Kustomization',
  ]);
  const workloads = byName('-workloads');
  const routes = byName('-routes');
  expect(workloads.spec).toMatchObject({ wait: true, prune: true });
  expect(workloads.spec.dependsOn).toBeUndefined();
  expect(routes.spec).toMatchObject({ prune: true, dependsOn: [{ name: workloads.metadata.name }] });
  for (const o of objects) {
    // The repository has the example's directories under flux/.
    const dir = path.join(FLUX, path.relative('flux', o.spec.path));
    expect(fs.existsSync(path.join(dir, 'kustomization.yaml'))).toBe(true);
    expect(path.basename(dir)).toBe(o.metadata.name);
  }
});

const names = (yaml: string) =>
  parseAllDocuments(yaml)
    .map((d) => `${d.get('kind')}/${(d.toJS() as { metadata: { name: string } }).metadata.name}`)
    .sort();

test('at every state of a rollout the two Kustomizations apply the whole output, routes only in the second', async () => {
  if (!hasKubectl()) return;
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-flux-ks-'));
  fs.cpSync(path.join(EXAMPLES, 'kruise-nginx', 'echoserver'), path.join(repo, 'apps', 'echoserver'), {
    recursive: true,
  });
  fs.cpSync(FLUX, path.join(repo, 'flux'), { recursive: true });
  fs.writeFileSync(
    path.join(repo, 'rollgen.yaml'),
    'apps:\n  - source: apps/echoserver\n    output: deploy/echoserver\n    removal: two-commits\n',
  );
  const deployment = path.join(repo, 'apps', 'echoserver', 'deployment.yaml');
  const seen = new Set<string>();
  // Adopt, select, then a new image through every step, promotion and the two-commit clean-up.
  for (let i = 0; i < 20; i++) {
    if (i === 2) fs.writeFileSync(deployment, fs.readFileSync(deployment, 'utf8').replace(':2.53', ':2.54'));
    const r = await runCli(['advance', 'echoserver'], repo);
    expect(r.code).toBe(0);
    if (!r.stdout.includes('wrote')) break;
    const all = names(kustomizeBuild(path.join(repo, 'deploy', 'echoserver')));
    const workloads = names(kustomizeBuild(path.join(repo, 'flux', 'echoserver-workloads')));
    const routes = names(kustomizeBuild(path.join(repo, 'flux', 'echoserver-routes')));
    expect([...workloads, ...routes].sort()).toEqual(all);
    expect(workloads.filter((n) => routes.includes(n))).toEqual([]);
    expect(routes.every((n) => n.startsWith('Ingress/'))).toBe(true);
    routes.forEach((n) => seen.add(n));
    expect(i).toBeLessThan(19);
  }
  // The canary Ingress went through the routes Kustomization while the rollout ran.
  expect([...seen]).toEqual(['Ingress/echoserver-canary']);
  fs.rmSync(repo, { recursive: true, force: true });
});
