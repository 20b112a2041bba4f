/**
 * A command on some apps of rollgen.yaml loads only the other apps its repo-wide checks need,
 * found through the app index (src/run/app-index.ts); the index never weakens a check: a peer that
 * conflicts, whether it changed or the named app did, still fails the command.
 */
import * as fs from 'fs';
import * as path from 'path';
import { appStamp, indexFile } from '../src/app/app-index';
import * as apps from '../src/app/inputs';
import { runCli } from './helpers/cli';
import { addApp, makeRepo } from './helpers/git-repo';

const CONFIG = 'apps:\n  - source: apps/*\n    output: deploy/{name}\n';
const ALB = path.join(__dirname, 'golden', 'aliyun-alb', 'header-weight', 'source');
let repo: string;
let loads: jest.SpyInstance;

beforeEach(() => {
  repo = makeRepo(['alpha', 'bravo', 'charlie', 'delta'], CONFIG, new Date('2026-03-01T10:00:00Z'));
  loads = jest.spyOn(apps, 'loadSource');
});
afterEach(() => {
  loads.mockRestore();
  fs.rmSync(repo, { recursive: true, force: true });
});

const loaded = () => loads.mock.calls.map(([loc]) => loc.name).sort();
/** The clock a few seconds ahead: files written by the test are no longer too recent to trust their stamp. */
const later = () => new Date(Date.now() + 10_000);
async function render(app: string) {
  loads.mockClear();
  return runCli(['render', app, '--step', '1'], repo, '', { now: later });
}
const setHost = (app: string, host: string) => {
  const file = path.join(repo, 'apps', app, 'ingress.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/[a-z]+\.example\.com/g, host));
};

test('GIVEN the index is warm THEN render APP parses APP alone; a changed app is parsed again', async () => {
  expect((await render('alpha')).code).toBe(0);
  expect(loaded()).toEqual(['alpha', 'bravo', 'charlie', 'delta']); // first run: the index is built
  expect((await render('alpha')).code).toBe(0);
  expect(loaded()).toEqual(['alpha']);
  setHost('delta', 'delta2.example.com');
  expect((await render('alpha')).code).toBe(0);
  expect(loaded()).toEqual(['alpha', 'delta']);
});

test('GIVEN a peer changed to claim the same host and path THEN render APP still fails on the conflict', async () => {
  expect((await render('alpha')).code).toBe(0);
  setHost('bravo', 'alpha.example.com');
  const r = await render('alpha');
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/app bravo.*both need a canary|both need a canary.*app bravo/s);
});

test('GIVEN a new file in an indexed peer claiming the same host and path THEN render APP fails on the conflict', async () => {
  expect((await render('alpha')).code).toBe(0);
  expect((await render('alpha')).code).toBe(0); // the stored stamp now lists bravo's files
  // The Ingress moves to a new file (the directory's listing changes), now on alpha's host.
  const ingress = fs.readFileSync(path.join(repo, 'apps', 'bravo', 'ingress.yaml'), 'utf8');
  fs.rmSync(path.join(repo, 'apps', 'bravo', 'ingress.yaml'));
  fs.writeFileSync(
    path.join(repo, 'apps', 'bravo', 'routes.yaml'),
    ingress.replace(/bravo\.example\.com/g, 'alpha.example.com'),
  );
  const r = await render('alpha');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('app bravo');
});

test("GIVEN the named app changed to claim an indexed peer's host and path THEN render fails naming that peer", async () => {
  expect((await render('alpha')).code).toBe(0);
  setHost('alpha', 'charlie.example.com');
  const r = await render('alpha');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('app charlie');
  expect(loaded()).toEqual(['alpha', 'charlie']);
});

test('GIVEN ALB apps on one listener THEN a warm index stands for the others (test/alb-peers-index.test.ts): the orders are the same as with a cold index', async () => {
  // alb-a sorts first, so it takes the orders nearest the stable's and alb-b's depend on it.
  for (const name of ['alb-a', 'alb-b']) fs.cpSync(ALB, path.join(repo, 'apps', name), { recursive: true });
  for (const f of fs.readdirSync(path.join(repo, 'apps', 'alb-a'))) {
    const file = path.join(repo, 'apps', 'alb-a', f);
    const text = fs.readFileSync(file, 'utf8').replace(/echoserver/g, 'echoserver2');
    fs.writeFileSync(file, text.replace(/echo\.example\.com/g, 'echo2.example.com'));
  }
  const first = await render('alb-b');
  expect(first.stderr).toBe('');
  expect(first.stdout).toContain('alb.ingress.kubernetes.io/order: "7"');
  const again = await render('alb-b');
  expect(again.stdout).toBe(first.stdout);
  // alb-a routes through aliyun-alb only and has no output yet: its order facts come from the index.
  expect(loaded()).toEqual(['alb-b']);
});

test('GIVEN a broken app THEN a warm index still prints its note', async () => {
  fs.writeFileSync(path.join(repo, 'apps', 'delta', 'rollout.yaml'), 'kind: [\n');
  const note = 'note: app delta has errors and is left out of repo-wide checks';
  expect((await render('alpha')).stderr).toContain(note);
  expect((await render('alpha')).stderr).toContain(note);
});

test('addApp gives each app its own host (guards the setup above)', () => {
  addApp(repo, 'echo');
  expect(fs.readFileSync(path.join(repo, 'apps', 'echo', 'ingress.yaml'), 'utf8')).toContain('echo.example.com');
});

test('a file changed within the last seconds makes the stamp racy: the next run compares contents, not times', () => {
  const loc = { name: 'alpha', source: path.join(repo, 'apps', 'alpha'), gates: {}, track: 'x', removal: 'one-commit' };
  const now = Date.now();
  const racy = appStamp(loc as never, now)!;
  expect(racy.stamp.racy).toBe(true);
  // Same times, one byte changed, size kept: a racy stamp still sees it.
  const file = path.join(loc.source, 'deployment.yaml');
  const before = fs.statSync(file);
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('replicas: 5', 'replicas: 6'));
  fs.utimesSync(file, before.atime, before.mtime);
  expect(appStamp(loc as never, now, racy.stamp)!.unchanged).toBe(false);
  const first = appStamp(loc as never, now + 10_000)!;
  expect(first.stamp.racy).toBeUndefined();
  expect(first.stamp.dirs['']).toContain('deployment.yaml');
  expect(appStamp(loc as never, now + 10_000, first.stamp)?.unchanged).toBe(true);
  fs.appendFileSync(file, '# x\n');
  const changed = appStamp(loc as never, now + 10_000, first.stamp)!;
  expect(changed.unchanged).toBe(false);
  // A new file changes its directory's times: the listing stored in the stamp is not reused.
  fs.writeFileSync(path.join(loc.source, 'new.yaml'), 'x: 1\n');
  const grown = appStamp(loc as never, now + 10_000, changed.stamp)!;
  expect(grown.unchanged).toBe(false);
  expect(grown.stamp.dirs['']).toContain('new.yaml');
});

/** The repository checked out afresh at the same path (a new runner): same files, new inodes and times. */
function freshCheckout(): void {
  const aside = `${repo}-aside`;
  fs.renameSync(repo, aside);
  fs.cpSync(aside, repo, { recursive: true });
  fs.rmSync(aside, { recursive: true, force: true });
}

test('GIVEN the index a cache restored on a fresh checkout THEN render APP parses APP alone; a changed app is parsed again', async () => {
  expect((await render('alpha')).code).toBe(0);
  expect(loaded()).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
  freshCheckout();
  expect((await render('alpha')).code).toBe(0);
  expect(loaded()).toEqual(['alpha']);
  // Checked out a moment ago (times too recent to trust): the contents still decide.
  freshCheckout();
  loads.mockClear();
  expect((await runCli(['render', 'alpha', '--step', '1'], repo, '')).code).toBe(0);
  expect(loaded()).toEqual(['alpha']);
  freshCheckout();
  setHost('delta', 'delta2.example.com');
  expect((await render('alpha')).code).toBe(0);
  expect(loaded()).toEqual(['alpha', 'delta']);
  // The new stamps were stored: the next run reads no file of an unchanged peer.
  expect((await render('alpha')).code).toBe(0);
  expect(loaded()).toEqual(['alpha']);
});

test('an index file edited by hand (a stamp of the wrong shape) is a cache miss for those apps, never an error', async () => {
  expect((await render('alpha')).code).toBe(0);
  const file = indexFile(path.join(repo, 'rollgen.yaml'), process.env);
  const index = JSON.parse(fs.readFileSync(file, 'utf8')) as { apps: Record<string, { stamp: unknown }> };
  const [bravo, charlie, delta] = Object.keys(index.apps).filter((k) => /bravo|charlie|delta/.test(k));
  index.apps[bravo].stamp = 'D\u0001stamp of an older layout';
  index.apps[charlie].stamp = { dirs: { '': 'not a list' }, stats: [1] };
  // Its own stats, true to the files, but a listing that is not names.
  const { stats } = index.apps[delta].stamp as { stats: number[] };
  index.apps[delta].stamp = { dirs: { '': [1, 2, 3, 4] }, stats };
  fs.writeFileSync(file, JSON.stringify(index));
  expect((await render('alpha')).code).toBe(0);
  expect(loaded()).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
  expect((await render('alpha')).code).toBe(0);
  expect(loaded()).toEqual(['alpha']);
});
