import * as fs from 'fs';
import { runCli } from '../helpers/cli';
import { FlowWorld } from '../helpers/flow-world';
import { bumpFleetImage, driveFleet, fleetFlowWorld, imagesOf } from '../helpers/fleet-flow';
import { git } from '../helpers/git-repo';

/**
 * The pinned revision (docs/fleet.md): a later wave rolls out only the pod template the earlier
 * waves run. A change to one later target's source alone (an overlay-only change) holds its wave,
 * saying why, in the PR flow and in local mode; nothing is written.
 */
jest.setTimeout(300_000);

let w: FlowWorld;
afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

const HOLD =
  /wave prod-us holds: web-prod-us \([0-9a-f]{10}\) would roll out a pod template the earlier waves never ran \(they run [0-9a-f]{10}\); change the source of every target alike/;

test('rollgen pr: an overlay-only change to a later target holds its wave, no PR opened', async () => {
  w = fleetFlowWorld();
  await driveFleet(w);
  bumpFleetImage(w, '2.99', ['prod-us']);
  const r = await w.pr();
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(HOLD);
  expect(r.writes).toEqual([]);
  expect(w.fake.open()).toEqual([]);
  expect(imagesOf(w, 'prod-us')).toEqual(['2.53']);
});

test('advance --commit: the same change holds the wave at the pinned revision, nothing committed', async () => {
  w = fleetFlowWorld();
  const now = () => new Date(Date.now() + 7200_000);
  for (let i = 0; i < 12; i++) await runCli(['advance', '--commit'], w.repo, '', { now });
  expect(imagesOf(w, 'prod-us')).toEqual(['2.53']);
  bumpFleetImage(w, '2.99', ['prod-us']);
  const head = git(w.repo, ['rev-parse', 'HEAD']);
  const r = await runCli(['advance', '--commit'], w.repo, '', { now });
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(HOLD);
  expect(git(w.repo, ['rev-parse', 'HEAD'])).toBe(head);
});
