import * as fs from 'fs';
import * as path from 'path';
import { bar } from '../../src/flow/template-data';
import { FlowWorld } from '../helpers/flow-world';
import { bumpImage, commitAll } from '../helpers/git-repo';

let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

/** echo adopted, a new revision, step 1 merged: the step-2 PR is open. */
async function atStep2(config: string): Promise<void> {
  w = new FlowWorld(['echo'], config);
  await w.pr();
  w.merge(w.openPr('rollgen/echo/adopt').number);
  await w.pr();
  await w.pr();
  bumpImage(w.repo, 'echo', '2.54', w.now);
  await w.pr();
  w.merge(w.openPr('rollgen/echo/step-1').number);
  await w.pr();
}

test('the default body: app, step k of n, replicas, a picture of the split, the gate, what merging does, files, how to abort', async () => {
  await atStep2('apps:\n  - source: apps/echo\n    output: deploy/echo\n');
  const pr = w.openPr('rollgen/echo/step-2');
  expect(pr.title).toMatch(/^rollgen\(echo\): step 2 of 4 \([0-9a-f]{10}\)$/);
  expect(pr.body).toContain('**Step 2 of 4**');
  expect(pr.body).toContain('| echo-rollout | canary | 2 | 5 | 40% | x-canary=on |');
  expect(pr.body).toContain('echo-rollout: stable ████████████░░░░░░░░ 60% / 40% canary');
  expect(pr.body).toContain('**Gate:** manual: merging this PR is the approval');
  expect(pr.body).toContain('**Merging this PR:** Argo CD or Flux applies step 2');
  expect(pr.body).toContain('- `deploy/echo/ingress-echo-canary.yaml` (modified)');
  expect(pr.body).toContain('rollgen abort echo --pr --merge');
});

test('bar: 20 cells, stable against canary', () => {
  expect(bar(0)).toBe(`${'█'.repeat(20)} 100% / 0%`);
  expect(bar(0.2)).toBe(`${'█'.repeat(16)}${'░'.repeat(4)} 80% / 20%`);
  expect(bar(1)).toBe(`${'░'.repeat(20)} 0% / 100%`);
});

test('templates named in rollgen.yaml replace the defaults; a misspelt field is an error naming the template', async () => {
  const config =
    'apps:\n  - source: apps/echo\n    output: deploy/echo\npr:\n  titleTemplate: .github/rollgen/title.hbs\n  bodyTemplate: .github/rollgen/body.hbs\n  labels: [canary]\n';
  w = new FlowWorld(['echo'], config);
  fs.mkdirSync(path.join(w.repo, '.github/rollgen'), { recursive: true });
  fs.writeFileSync(path.join(w.repo, '.github/rollgen/title.hbs'), '[{{app}}] {{target}} ({{gate.kind}})\n');
  fs.writeFileSync(
    path.join(w.repo, '.github/rollgen/body.hbs'),
    '{{#each rollouts}}{{name}}: {{traffic}} to {{canaryReplicas}} pods\n{{/each}}{{#each files}}{{path}}\n{{/each}}',
  );
  commitAll(w.repo, 'templates', w.now);
  await w.pr();
  const pr = w.openPr('rollgen/echo/adopt');
  expect(pr.title).toBe('[echo] adopt (manual)');
  expect(pr.body).toMatch(/^echo-rollout: 0% to 0 pods\ndeploy\/echo\/deployment-echo.yaml\n/);
  expect(pr.body).toMatch(/<!-- rollgen: \{.*"target":"adopt".*\} -->\n$/);
  expect(pr.labels).toEqual(['canary', 'rollgen', 'rollgen:manual']);

  fs.writeFileSync(path.join(w.repo, '.github/rollgen/title.hbs'), '{{app}} {{stepp}}\n');
  commitAll(w.repo, 'typo', w.now);
  const r = await w.pr();
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^\.github\/rollgen\/title\.hbs:1:1: PR template: "stepp" not defined/m);
  fs.writeFileSync(path.join(w.repo, '.github/rollgen/title.hbs'), '{{#if app}}x\n');
  commitAll(w.repo, 'broken', w.now);
  expect((await w.pr()).stderr).toMatch(/^\.github\/rollgen\/title\.hbs:\d+:1: PR template: Parse error/m);
});

/** Rewrites apps/echo/rollout.yaml with `edit` and commits it. */
function editRollout(edit: (text: string) => string): void {
  const file = path.join(w.repo, 'apps/echo/rollout.yaml');
  fs.writeFileSync(file, edit(fs.readFileSync(file, 'utf8')));
  commitAll(w.repo, 'edit rollout', w.now);
}

test('a field rollgen only warns about is listed in the PR body, located, for the reviewer', async () => {
  w = new FlowWorld(['echo'], 'apps:\n  - source: apps/echo\n    output: deploy/echo\n');
  editRollout((t) => t.replace('    canary:\n', '    canary:\n      failureThreshold: 20%\n'));
  await w.pr();
  const body = w.openPr('rollgen/echo/adopt').body;
  expect(body).toContain('**rollgen read past these fields**');
  expect(body).toMatch(
    /- `apps\/echo\/rollout\.yaml:\d+:\d+: spec\.strategy\.canary\.failureThreshold: rollgen does not watch pods/,
  );
});

test('a paused rollout holds: rollgen pr says so and proposes nothing for it', async () => {
  w = new FlowWorld(['echo'], 'apps:\n  - source: apps/echo\n    output: deploy/echo\n');
  editRollout((t) => t.replace('  strategy:\n', '  strategy:\n    paused: true\n'));
  const run = await w.pr();
  expect(run.stdout).toContain('echo/echo-rollout: paused by spec.strategy.paused; nothing is proposed for it');
  expect(w.fake.open()).toEqual([]);
});
