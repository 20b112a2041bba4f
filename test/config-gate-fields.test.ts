import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from './helpers/cli';

/**
 * rollgen.yaml fields that shape the gates and PRs, each honoured, warned at its line or refused
 * there (QA probe 3, findings 3, 4 and 11): nothing a user writes there may drop a gate silently.
 */
const EXAMPLES = path.join(__dirname, '..', 'examples');
let dir = '';

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-config-gates-'));
  fs.cpSync(path.join(EXAMPLES, 'kruise-nginx', 'echoserver'), path.join(dir, 'apps', 'echo'), { recursive: true });
  fs.cpSync(path.join(EXAMPLES, 'argo-analysis', 'shop'), path.join(dir, 'apps', 'shop'), { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Writes rollgen.yaml with app echo (its extra lines indented under it) and whatever follows. */
function config(echo: string, rest = ''): void {
  fs.writeFileSync(
    path.join(dir, 'rollgen.yaml'),
    `apps:\n  - source: apps/echo\n    output: deploy/echo\n${echo}${rest}`,
  );
}

const SHARED = "health:\n  statuses: ['kustomization/{name}/*']\n";

describe("an app's health that names nothing would drop the shared health gate: refused at it", () => {
  test.each([['health: {}'], ['health: {statuses: []}'], ['health: {statuses: [], checkRuns: []}']])(
    '%s',
    async (line) => {
      config(`    ${line}\n`, SHARED);
      const r = await runCli(['validate'], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        "rollgen.yaml:4:13: health names nothing to wait for (no statuses, checkRuns or argocd), and an app's health replaces the shared one, so this app would have no health gate; remove it to keep the shared health gate of rollgen.yaml",
      );
    },
  );

  test('a shared health that names nothing is refused too', async () => {
    config('', 'health: {checkRuns: []}\n');
    const r = await runCli(['validate'], dir);
    expect([r.code, r.stderr]).toEqual([
      2,
      'rollgen.yaml:4:9: health names nothing to wait for (no statuses, checkRuns or argocd), so it gates nothing; list the statuses or check runs to wait for, or remove it\n',
    ]);
  });

  test("an app's own checks replace the shared ones, as documented: accepted", async () => {
    config('    health: {checkRuns: [ci]}\n', SHARED);
    expect((await runCli(['validate'], dir)).code).toBe(0);
  });
});

test('gates.unpaused: manual on an app with Argo rollouts is honoured (stricter than Argo) and said at it', async () => {
  fs.writeFileSync(
    path.join(dir, 'rollgen.yaml'),
    'apps:\n  - source: apps/shop\n    output: deploy/shop\n    gates: {unpaused: manual}\n',
  );
  const r = await runCli(['plan', 'shop'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe(
    'rollgen.yaml:4:23: warning: gates.unpaused: manual makes each step of Argo Rollout shop written without pause wait for a person, where the Argo controller would run on by itself; write `pause: {}` in the Rollout to say so there instead\n',
  );
  // The step Argo would run past now waits for a person.
  expect(r.stdout).toMatch(/^1 .* manual \+ analysis success-rate$/m);
  expect(r.stdout).not.toMatch(/^1 .* automatic/m);
});

test('gates.unpaused: automatic on an Argo app has no effect and is warned as such', async () => {
  fs.writeFileSync(
    path.join(dir, 'rollgen.yaml'),
    'apps:\n  - source: apps/shop\n    output: deploy/shop\n    gates: {unpaused: automatic}\n',
  );
  const r = await runCli(['plan', 'shop'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('gates.unpaused: automatic has no effect on Argo Rollout shop');
  expect(r.stdout).toMatch(/^1 .* automatic \+ analysis success-rate$/m);
});

test('gates.unpaused on a Kruise app is honoured without a word', async () => {
  config('    gates: {unpaused: automatic}\n');
  const r = await runCli(['validate'], dir);
  expect([r.code, r.stderr]).toEqual([0, '']);
});

describe('pr: fields', () => {
  test("a label of rollgen's own is refused at it", async () => {
    config('', "pr:\n  labels: [team-a, 'rollgen:automatic', Rollgen]\n");
    const r = await runCli(['validate'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('rollgen.yaml:5:20: label "rollgen:automatic" is rollgen\'s own');
    expect(r.stderr).toContain('rollgen.yaml:5:41: label "Rollgen" is rollgen\'s own');
    expect(r.stderr).not.toContain('team-a');
  });

  test.each([
    ['../../evil.yml', 'evil.yml'],
    ['.github/workflows/rollgen.yml', 'rollgen.yml'],
    ['deploy', 'rollgen.yml'],
  ])('workflow %s is refused: a file name only', async (workflow, suggested) => {
    config('', `pr:\n  workflow: ${workflow}\n`);
    const r = await runCli(['validate'], dir);
    expect([r.code, r.stderr]).toEqual([
      2,
      `rollgen.yaml:5:13: workflow "${workflow}" is not a file name: write the name of the workflow file under .github/workflows (e.g. ${suggested})\n`,
    ]);
  });

  test('a workflow file name and other labels are accepted', async () => {
    config('', 'pr:\n  workflow: deploy.yaml\n  labels: [team-a, rollgenx]\n');
    expect((await runCli(['validate'], dir)).code).toBe(0);
  });
});
