import * as fs from 'fs';
import * as path from 'path';
import { parseMarker } from '../../src/flow/marker';
import { FlowWorld } from '../helpers/flow-world';
import { commitAll } from '../helpers/git-repo';

/** Two rollouts sharing a Kruise TrafficRouting (examples/kruise-istio/full-link) through `rollgen pr`. */
const FULL_LINK = path.join(__dirname, '..', '..', 'examples', 'kruise-istio', 'full-link');
const CONFIG =
  'apps:\n  - source: apps/full-link\n    output: deploy/full-link\n    gates: {unpaused: automatic}\n    removal: two-commits\n';
let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const ops = (r: { writes: readonly { op: string }[] }) => r.writes.map((c) => c.op);
const changed = (n: number) =>
  w.fake.changesOf(n).map((c) => `${path.basename(c.path)}${c.content === null ? ' (deleted)' : ''}`);

function bump(service: 'mocka' | 'mockb', tag: string): void {
  const file = path.join(w.repo, 'apps/full-link', `${service}.yaml`);
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/go-http-sample:\S+/, `go-http-sample:${tag}`));
  commitAll(w.repo, `${service} ${tag}`, w.now);
}

beforeEach(async () => {
  w = new FlowWorld([], CONFIG);
  fs.cpSync(FULL_LINK, path.join(w.repo, 'apps/full-link'), { recursive: true });
  commitAll(w.repo, 'full-link', w.now);
  await w.pr();
  w.merge(w.openPr('rollgen/full-link/adopt').number);
  await w.pr();
  await w.pr(); // merges the selector switch
});

test('both services in one PR per step; a new revision of one restarts both at step 1 on the same branch', async () => {
  bump('mocka', '1.1');
  bump('mockb', '1.1');
  await w.pr();
  const step1 = w.openPr('rollgen/full-link/step-1');
  expect(step1.labels).toContain('rollgen:manual'); // the start gate
  expect(changed(step1.number)).toEqual(
    expect.arrayContaining([
      'deployment-mocka-canary.yaml',
      'deployment-mockb-canary.yaml',
      'virtualservice-mocka.yaml',
      'virtualservice-mockb.yaml',
    ]),
  );
  expect(step1.body).toMatch(/\| mocka \| canary \| 1 \|[\s\S]*\| mockb \| canary \| 1 \|/);
  w.merge(step1.number);
  await w.pr();
  const step2 = w.openPr('rollgen/full-link/step-2');
  expect(step2.labels).toContain('rollgen:automatic');

  // mocka alone changes again: mockb restarts with it, in one step-1 PR that supersedes step 2.
  bump('mocka', '1.2');
  const r = await w.pr();
  expect(ops(r)).toEqual(['commitToBranch', 'createPull', 'updatePull', 'comment']);
  expect(w.fake.pull(step2.number).state).toBe('closed');
  const restart = w.openPr('rollgen/full-link/step-1');
  expect(restart.number).not.toBe(step1.number);
  expect(restart.labels).toContain('rollgen:manual');
  expect(parseMarker(restart.body)!.revision.split(',')).toHaveLength(2);
  w.merge(restart.number);
  const status = fs.readFileSync(path.join(w.repo, 'deploy/full-link/rollgen-status.yaml'), 'utf8');
  expect(status).toContain('restart at step 1 in lock-step with mocka');
  expect((await w.pr()).writes.map((c) => c.op)).toEqual(['commitToBranch', 'createPull']);
  expect(w.openPr('rollgen/full-link/step-2').labels).toContain('rollgen:automatic');
});

test('finishing takes promote, cleanup and remove, each merged by rollgen, for both services at once', async () => {
  bump('mocka', '1.1');
  bump('mockb', '1.1');
  await w.pr();
  w.merge(w.openPr('rollgen/full-link/step-1').number);
  for (const target of ['step-2', 'promote', 'cleanup', 'remove']) {
    await w.pr();
    const pr = w.openPr(`rollgen/full-link/${target}`);
    expect(pr.labels).toContain('rollgen:automatic');
    if (target === 'cleanup') expect(changed(pr.number)).not.toContain('deployment-mocka-canary.yaml (deleted)');
    if (target === 'remove')
      expect(changed(pr.number)).toEqual(
        expect.arrayContaining(['deployment-mocka-canary.yaml (deleted)', 'deployment-mockb-canary.yaml (deleted)']),
      );
    expect(ops(await w.pr())).toEqual(['mergePull']);
  }
  const rest = await w.pr();
  expect(rest.writes).toEqual([]);
  expect(rest.stdout).toMatch(/^full-link: up to date$/m);
  expect(fs.readdirSync(path.join(w.repo, 'deploy/full-link')).filter((f) => f.includes('canary'))).toEqual([]);
});
