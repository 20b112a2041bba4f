import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { BASE_REPO, OUTPUT } from '../helpers/started-repo';

/**
 * A Deployment (or its Rollout) renamed in the source while the output runs it under the old name.
 * A new name is a new object: going on would start every pod of it at once, with the source's
 * version and no canary. rollgen refuses at the new name, says which name the output runs and that
 * nothing was written, also when the status file is lost or a new image comes with the rename.
 */
let dir: string;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-renamed-'));
  fs.cpSync(BASE_REPO, dir, { recursive: true });
  for (let i = 0; i < 2; i++) expect((await runCli(['advance'], dir)).code).toBe(0);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const edit = (file: string, from: RegExp, to: string) => {
  const full = path.join(dir, 'apps', 'echo', file);
  fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(from, to));
};
const outputTree = () =>
  fs
    .readdirSync(path.join(dir, OUTPUT))
    .sort()
    .map((f) => `${f}\n${fs.readFileSync(path.join(dir, OUTPUT, f), 'utf8')}`)
    .join('\n');

const RENAMED_DEPLOYMENT =
  /^apps\/echo\/deployment\.yaml:4:9: Deployment "echoserver2" of rollout rollouts-demo is not in the output, which runs "echoserver": was it renamed\?.*Give it back its name \("echoserver"\) here and in the Rollout's workloadRef\.name; nothing was written$/m;

function renameDeployment(): void {
  edit('deployment.yaml', /^ {2}name: echoserver$/m, '  name: echoserver2');
  edit(
    'rollout.yaml',
    /workloadRef:\n(\s+apiVersion: apps\/v1\n\s+kind: Deployment\n\s+)name: echoserver\n/,
    'workloadRef:\n$1name: echoserver2\n',
  );
}

test.each([['advance'], ['render'], ['status'], ['validate']])(
  'GIVEN the Deployment renamed in the source WHEN `rollgen %s` THEN refused at the new name with the name the output runs, nothing written',
  async (...command) => {
    renameDeployment();
    const before = outputTree();
    const r = await runCli(command, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(RENAMED_DEPLOYMENT);
    expect(r.stderr).not.toContain('restore it from git history');
    expect(outputTree()).toBe(before);
  },
);

test('GIVEN the Deployment renamed with a new image and the status file lost WHEN advanced THEN refused, not deployed as a first deploy', async () => {
  renameDeployment();
  edit('deployment.yaml', /agnhost:2\.53/, 'agnhost:2.54');
  fs.rmSync(path.join(dir, OUTPUT, 'rollgen-status.yaml'));
  const before = outputTree();
  const r = await runCli(['advance'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(RENAMED_DEPLOYMENT);
  expect(outputTree()).toBe(before);
});

test('GIVEN the Rollout renamed with a new image WHEN advanced THEN refused at the Rollout, the new image on no pod; with the name back it starts at step 1', async () => {
  edit('rollout.yaml', /name: rollouts-demo\n/, 'name: rollouts-demo2\n');
  edit('deployment.yaml', /agnhost:2\.53/, 'agnhost:2.54');
  const r = await runCli(['advance'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^apps\/echo\/rollout\.yaml:\d+:\d+: rollout rollouts-demo2 is not in the output's status, which records "rollouts-demo".*Give the Rollout back its name \("rollouts-demo"\); nothing was written$/m,
  );
  expect(outputTree()).not.toContain('agnhost:2.54');
  edit('rollout.yaml', /name: rollouts-demo2\n/, 'name: rollouts-demo\n');
  const back = await runCli(['advance'], dir);
  expect(back.stdout).toContain('start -> step 1 of 4');
});
