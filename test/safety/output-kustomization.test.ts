import * as fs from 'fs';
import * as path from 'path';
import { parse, parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli';
import { exampleApps, lineOf } from '../helpers/example-app';
import { setImage } from '../helpers/rollout-dir';
import { hasKubectl, kustomizeBuild } from '../helpers/schema';

/**
 * The output's kustomization.yaml is rollgen's, but people edit it and rollgen keeps their fields.
 * A field that changes the objects rollgen rendered (an `images:` entry sets the stable and the
 * canary image alike) is refused at its line; a file rollgen wrote that it no longer lists, or the
 * file deleted, is drift: reported, and never overwritten silently.
 */
const apps = exampleApps('rollgen-out-kust-');
const kustomization = () => path.join(apps.dir(), 'out', 'kustomization.yaml');
const snapshot = () =>
  Object.fromEntries(
    fs.readdirSync(path.join(apps.dir(), 'out')).map((f) => [f, fs.readFileSync(path.join(apps.dir(), 'out', f))]),
  );

/** examples/kruise-nginx/echoserver deployed (stable only), with `extra` appended to its output kustomization. */
async function deployed(extra: string): Promise<string> {
  apps.example('kruise-nginx/echoserver', 'deployment.yaml', (t) => t);
  expect((await runCli(['advance', 'src', 'out'], apps.dir())).code).toBe(0);
  const text = fs.readFileSync(kustomization(), 'utf8') + extra;
  fs.writeFileSync(kustomization(), text);
  return text;
}

const refused: readonly [string, string, string, RegExp][] = [
  [
    'images',
    'images:\n  - name: echoserver\n    newTag: "2.55"\n',
    '- name: echoserver',
    /stable and the canary pods at once/,
  ],
  ['replicas', 'replicas:\n  - name: echoserver\n    count: 9\n', '- name: echoserver', /replica counts rollgen sets/],
  ['patches', 'patches:\n  - path: more-memory.yaml\n', '- path:', /patches the objects rollgen rendered/],
  ['configMapGenerator', 'configMapGenerator:\n  - name: settings\n', '- name: settings', /generates a ConfigMap/],
  ['namePrefix', 'namePrefix: prod-\n', 'namePrefix', /renames the objects/],
  ['commonLabels', 'commonLabels:\n  team: web\n', 'team: web', /selectors and pod templates/],
  ['labels', 'labels:\n  - pairs: { team: web }\n    includeTemplates: true\n', '- pairs', /pod templates/],
];

test.each(refused)(
  '`%s` in the output kustomization is refused at its line, nothing written',
  async (_, extra, at, why) => {
    const text = await deployed(extra);
    setImage(apps.dir(), '2.54');
    const before = snapshot();
    for (const command of ['advance', 'status', 'validate']) {
      const r = await runCli([command, 'src', 'out'], apps.dir());
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^out/kustomization.yaml:${lineOf(text, at)}:\\d+: .*`, 'm'));
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toContain("move it to the app's source");
    }
    expect(snapshot()).toEqual(before);
  },
);

test('a field kustomize does not know is refused with the field meant', async () => {
  const text = await deployed('imagess: []\n');
  const r = await runCli(['advance', 'src', 'out'], apps.dir());
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    `out/kustomization.yaml:${lineOf(text, 'imagess')}:10: \`imagess\` is not a Kustomization field: kustomize refuses this file (did you mean images?)`,
  );
});

test('fields that leave the rendered objects alone are kept through a whole rollout', async () => {
  await deployed('namespace: web\ncommonAnnotations:\n  owner: web-team\nlabels:\n  - pairs: { team: web }\n');
  setImage(apps.dir(), '2.54');
  for (let i = 0; i < 8; i++) expect((await runCli(['advance', 'src', 'out'], apps.dir())).stderr).toBe('');
  const kept = parse(fs.readFileSync(kustomization(), 'utf8'));
  expect(kept).toMatchObject({ namespace: 'web', commonAnnotations: { owner: 'web-team' } });
  if (!hasKubectl()) return;
  const built = parseAllDocuments(kustomizeBuild(path.join(apps.dir(), 'out'))).map((d) => d.toJS());
  expect(built.map((o) => o.metadata.namespace)).toEqual(built.map(() => 'web'));
});

test('a file rollgen wrote and the kustomization no longer lists is drift: shown, refused, relisted by --force', async () => {
  await deployed('');
  fs.writeFileSync(
    kustomization(),
    fs.readFileSync(kustomization(), 'utf8').replace(/^ {2}- ingress-echoserver.yaml\n/m, ''),
  );
  const drift = 'out/kustomization.yaml: no longer lists ingress-echoserver.yaml (rollgen wrote it for this step)';
  expect((await runCli(['status', 'src', 'out'], apps.dir())).stdout).toContain(drift);
  expect((await runCli(['validate', 'src', 'out'], apps.dir())).stderr).toMatch(
    /^out\/kustomization.yaml:1:1: warning: drift: no longer lists/m,
  );
  setImage(apps.dir(), '2.54');
  const refusedRun = await runCli(['advance', 'src', 'out'], apps.dir());
  expect({ code: refusedRun.code, stderr: refusedRun.stderr }).toEqual({
    code: 1,
    stderr: expect.stringContaining(`  ${drift}, so kustomize does not apply it\n`),
  });
  expect((await runCli(['advance', 'src', 'out', '--force'], apps.dir())).code).toBe(0);
  expect(parse(fs.readFileSync(kustomization(), 'utf8')).resources).toContain('ingress-echoserver.yaml');
});

test('a deleted output kustomization is drift: the next step is refused until --force writes it again', async () => {
  await deployed('');
  fs.rmSync(kustomization());
  setImage(apps.dir(), '2.54');
  const r = await runCli(['advance', 'src', 'out'], apps.dir());
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('out/kustomization.yaml: deleted by hand (rollgen wrote it)');
  expect(fs.existsSync(kustomization())).toBe(false);
  expect((await runCli(['advance', 'src', 'out', '--force'], apps.dir())).code).toBe(0);
  expect(fs.existsSync(kustomization())).toBe(true);
});
