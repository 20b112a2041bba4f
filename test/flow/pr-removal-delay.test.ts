import * as fs from 'fs';
import * as path from 'path';
import { FlowWorld } from '../helpers/flow-world';

/**
 * Kruise trafficRoutings[].gracePeriodSeconds (like Argo scaleDownDelaySeconds): after routes
 * leave the canary its workloads stay one more commit, which rollgen merges only that many seconds
 * later, even with the default one-commit removal.
 */
const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n';
let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const withGracePeriod = (repo: string) => {
  const file = path.join(repo, 'apps', 'echo', 'rollout.yaml');
  fs.writeFileSync(
    file,
    fs.readFileSync(file, 'utf8').replace(/(- service: echo\n)/, '$1          gracePeriodSeconds: 45\n'),
  );
};
const ops = (r: { writes: readonly { op: string }[] }) => r.writes.map((c) => c.op);
const out = () => fs.readdirSync(path.join(w.repo, 'deploy/echo'));

test('clean-up drains first; the removal PR is timed by the grace period', async () => {
  w = await FlowWorld.echoAtStep(CONFIG, 4, withGracePeriod);
  expect(fs.readFileSync(path.join(w.repo, 'apps/echo/rollout.yaml'), 'utf8')).toContain('gracePeriodSeconds: 45');
  w.merge(w.openPr('rollgen/echo/promote').number);
  await w.pr();
  expect(ops(await w.pr())).toEqual(['mergePull']); // cleanup: routes to stable, automatic
  expect(out()).toContain('deployment-echo-canary.yaml');

  await w.pr();
  const remove = w.openPr('rollgen/echo/remove');
  expect(remove.labels).toContain('rollgen:timed');
  expect(ops(await w.pr())).toEqual([]); // 45 s have not passed
  w.later(46);
  expect(ops(await w.pr())).toEqual(['mergePull']);
  expect(out().filter((f) => f.includes('canary'))).toEqual([]);
});
