import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli';
import { FlowWorld } from '../helpers/flow-world';
import { OUTPUTS, bumpFleetImage, fleetFlowWorld } from '../helpers/fleet-flow';
import { git } from '../helpers/git-repo';
import { FLEET_EXAMPLE } from '../helpers/fleet-repo';

/**
 * examples/fleet's GitOps manifests (docs/fleet.md): the Argo CD ApplicationSet finds exactly one
 * directory per cluster output, and each cluster's two Flux Kustomizations build, with real
 * kustomize, the whole output of that cluster (routes only in the second) at every commit of a
 * fleet rollout.
 */
jest.setTimeout(600_000);

const TARGETS = Object.keys(OUTPUTS) as (keyof typeof OUTPUTS)[];
interface AppSet {
  kind: string;
  spec: {
    generators: { git: { directories: { path: string }[] } }[];
    template: { metadata: { name: string }; spec: { source: { path: string }; destination: { name: string } } };
  };
}
interface FluxKustomization {
  metadata: { name: string };
  spec: Record<string, unknown>;
}
const docs = <T>(file: string): T[] => parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => d.toJS() as T);
const build = (dir: string) => execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
const names = (yaml: string) =>
  parseAllDocuments(yaml)
    .map((d) => d.toJS() as { kind: string; metadata: { name: string; annotations?: Record<string, string> } })
    .filter(Boolean)
    .map(
      (o) =>
        `${o.kind}/${o.metadata.name}${o.metadata.annotations?.['argocd.argoproj.io/sync-wave'] === '1' ? ' (route)' : ''}`,
    )
    .sort();

let w: FlowWorld;
afterEach(() => w && fs.rmSync(w.repo, { recursive: true, force: true }));

test('the ApplicationSet makes one Application per cluster output, named and deployed after its cluster', () => {
  const [set] = docs<AppSet>(path.join(FLEET_EXAMPLE, 'argocd', 'applicationset.yaml'));
  expect(set.kind).toBe('ApplicationSet');
  const glob = set.spec.generators[0].git.directories[0].path as string;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const match = (require('picomatch') as typeof import('picomatch'))(glob);
  const outputs = TARGETS.map((t) => OUTPUTS[t]);
  // The directories the generator sees in a repository with every output written, and nothing else matching.
  const dirs = [
    'clusters/staging/web',
    'clusters/prod-eu/web',
    'clusters/prod-us/web',
    'web/overlays/staging',
    'argocd',
  ];
  expect(dirs.filter((d) => match(d))).toEqual(outputs);
  expect(set.spec.template.spec.source.path).toBe('{{.path.path}}');
  expect(set.spec.template.spec.destination.name).toBe('{{index .path.segments 1}}');
  expect(set.spec.template.metadata.name).toBe('{{index .path.segments 1}}-{{.path.basename}}');
});

test('each cluster has its own two Flux Kustomizations over its output; together they apply the whole output at every commit of a rollout', async () => {
  w = fleetFlowWorld((y) => y.replace('    output: clusters/{target}/{name}\n', '$&    removal: two-commits\n'));
  for (const t of TARGETS) {
    const [workloads, routes] = docs<FluxKustomization>(path.join(w.repo, 'flux', t, 'kustomizations.yaml'));
    expect(workloads.spec).toMatchObject({ path: `./flux/${t}/web-workloads`, wait: true, prune: true });
    expect(routes.spec).toMatchObject({
      path: `./flux/${t}/web-routes`,
      dependsOn: [{ name: workloads.metadata.name }],
    });
  }
  // The clusters whose output the last commit changed (each commit moves one wave).
  const check = () => {
    const changed = git(w.repo, ['show', '--name-only', '--format=', 'HEAD']);
    for (const t of TARGETS) {
      if (!changed.includes(`${OUTPUTS[t]}/`)) continue;
      const whole = names(build(path.join(w.repo, OUTPUTS[t])));
      const workloads = names(build(path.join(w.repo, 'flux', t, 'web-workloads')));
      const routes = names(build(path.join(w.repo, 'flux', t, 'web-routes')));
      expect(workloads.some((n) => n.endsWith('(route)'))).toBe(false);
      expect(routes.every((n) => n.endsWith('(route)'))).toBe(true);
      expect([...workloads, ...routes].sort()).toEqual(whole);
    }
  };
  let commits = 0;
  const settle = async () => {
    for (let i = 0; i < 40; i++) {
      const head = git(w.repo, ['rev-parse', 'HEAD']);
      const r = await runCli(['advance', '--commit'], w.repo, '', { now: () => new Date(Date.now() + 7200_000) });
      expect(r.stderr).toBe('');
      if (git(w.repo, ['rev-parse', 'HEAD']) === head) return;
      commits++;
      check();
    }
  };
  await settle();
  bumpFleetImage(w, '2.54');
  await settle();
  expect(commits).toBeGreaterThan(15);
});
