import * as fs from 'fs';
import * as path from 'path';
import { FlowWorld } from '../helpers/flow-world';
import { commitAll } from '../helpers/git-repo';

/**
 * Migrating from Argo Rollouts (docs/migration.md): the controller's `rollouts-pod-template-hash`
 * stays in the live Service selectors until a person removes it, so the selector switch of an Argo
 * app waits for that person's merge; with the Action running, rollgen never merges it first
 * (issue 29 item 7). A Kruise app's switch still follows by itself (test/flow/pr-e2e.test.ts).
 */
const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'argo-nginx', 'echoserver');
let w: FlowWorld;
beforeEach(() => {
  w = new FlowWorld(['shop'], 'apps:\n  - source: apps/shop\n    output: deploy/shop\n');
  const app = path.join(w.repo, 'apps', 'shop');
  fs.rmSync(app, { recursive: true });
  fs.cpSync(EXAMPLE, app, { recursive: true });
  commitAll(w.repo, 'shop: an Argo Rollout, run by the controller until now', w.now);
});
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

test("an Argo app's selector switch waits for a person, and says what to check first", async () => {
  await w.pr();
  const adopt = w.openPr('rollgen/shop/adopt');
  expect(adopt.body).toContain('waits for a person to merge it: first remove `rollouts-pod-template-hash`');
  w.merge(adopt.number);
  await w.pr();
  const select = w.openPr('rollgen/shop/select');
  expect(select.labels).toContain('rollgen:manual');
  w.later(3600);
  const again = await w.pr();
  expect(again.writes.filter((c) => c.op === 'mergePull')).toEqual([]);
  expect(w.openPr('rollgen/shop/select').number).toBe(select.number);
});
