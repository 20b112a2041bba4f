import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { runCli } from './helpers/cli';
import { makeAppDir, setImage } from './helpers/rollout-dir';
import { hasKubectl, kustomizeBuild } from './helpers/schema';

/** The README's Flux split: workloads and routes built separately from one output, with real kustomize. */
const split = (selector: string) => `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [../../out]
patches:
  - target: {annotationSelector: "argocd.argoproj.io/sync-wave${selector}"}
    patch: |
      $patch: delete
      apiVersion: v1
      kind: Any
      metadata: {name: any}
`;

const names = (yaml: string) =>
  parseAllDocuments(yaml)
    .map((d) => {
      const o = d.toJS();
      return `${o.kind}/${o.metadata.name}`;
    })
    .sort();

test('the Flux workloads/routes split partitions a canary step exactly', async () => {
  if (!hasKubectl()) return;
  const dir = makeAppDir('rollgen-flux-', path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver'));
  for (let i = 0; i < 2; i++) await runCli(['advance', 'src', 'out'], dir);
  setImage(dir, '2.54');
  expect((await runCli(['advance', 'src', 'out'], dir)).code).toBe(0);
  for (const [sub, sel] of [
    ['workloads', '=1'],
    ['routes', '!=1'],
  ]) {
    fs.mkdirSync(path.join(dir, 'flux', sub), { recursive: true });
    fs.writeFileSync(path.join(dir, 'flux', sub, 'kustomization.yaml'), split(sel));
  }
  const workloads = names(kustomizeBuild(path.join(dir, 'flux', 'workloads')));
  const routes = names(kustomizeBuild(path.join(dir, 'flux', 'routes')));
  expect(routes).toEqual(['Ingress/echoserver-canary']);
  expect(workloads).toEqual([
    'Deployment/echoserver',
    'Deployment/echoserver-canary',
    'Ingress/echoserver',
    'Service/echoserver',
    'Service/echoserver-canary',
  ]);
  expect(names(kustomizeBuild(path.join(dir, 'out')))).toEqual([...workloads, ...routes].sort());
  fs.rmSync(dir, { recursive: true, force: true });
});
