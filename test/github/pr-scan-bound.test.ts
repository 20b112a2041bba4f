/**
 * `rollgen pr` against the fake GitHub over HTTP, counting list requests: the closed-PR scan stops
 * at the app's history also for an app that never landed, and the bound never hides the PR a person
 * closed (the app still holds).
 */
import { rmSync } from 'node:fs';
import { runCli } from '../helpers/cli';
import { makeRepo } from '../helpers/git-repo';
import { Harness, seedFromCheckout, startHarness } from './helpers';

const SOURCE_AT = new Date('2025-12-01T10:00:00Z'); // before the fake's clock (2026-01-01 onwards): PRs come later
const OLD = '2025-06-01T00:00:00Z';

let h: Harness;
let repo: string;

beforeEach(async () => {
  h = await startHarness();
  repo = makeRepo(['echo'], 'apps:\n  - source: apps/echo\n    output: deploy/echo\n', SOURCE_AT);
  seedFromCheckout(h.fake, repo);
  for (let i = 0; i < 1000; i++) seedOldClosedPull(i);
});
afterEach(async () => {
  await h.fake.close();
  rmSync(repo, { recursive: true, force: true });
  expect(h.fake.violations).toEqual([]);
});

/** Last year's PRs, rollgen's and others', long closed. */
function seedOldClosedPull(i: number): void {
  const pull = h.fake.state.openPull(i % 2 ? `rollgen/old${i}/step-1` : `feature/${i}`, 'main', `old ${i}`, null);
  Object.assign(pull, { state: 'closed', createdAt: OLD, updatedAt: OLD, closedAt: OLD });
}

const pr = () =>
  runCli(['pr'], repo, '', {
    env: { GITHUB_TOKEN: h.fake.token, GITHUB_REPOSITORY: h.fake.repository },
    now: () => new Date('2026-01-02T00:00:00Z'),
    scm: () => h.scm,
  });

const listRequests = () => h.fake.requests.filter((r) => r.method === 'GET' && r.route.endsWith('/pulls')).length;

test('GIVEN 1,000 old closed PRs and an app that never landed THEN a run lists open PRs and one page of closed ones', async () => {
  const first = await pr();
  expect(first.code).toBe(0);
  expect([...h.fake.state.pulls.values()].filter((p) => p.state === 'open').map((p) => p.head)).toEqual([
    'rollgen/echo/adopt',
  ]);
  expect(listRequests()).toBe(2);
});

test('GIVEN the PR of an app that never landed closed by a person THEN the bounded scan still sees it: the app holds', async () => {
  expect((await pr()).code).toBe(0);
  const adopt = [...h.fake.state.pulls.values()].find((p) => p.head === 'rollgen/echo/adopt')!;
  const at = h.fake.state.now();
  Object.assign(adopt, { state: 'closed', closedAt: at, updatedAt: at });
  h.fake.resetLog();
  const again = await pr();
  expect(again.code).toBe(0);
  expect(again.stdout + again.stderr).toMatch(/held/);
  expect([...h.fake.state.pulls.values()].filter((p) => p.state === 'open')).toEqual([]);
  expect(listRequests()).toBe(2);
});
