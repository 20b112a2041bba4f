import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LOCK_FILE } from '../src/io/output-lock';
import { runCli } from './helpers/cli';
import { OUTPUT, startedRepo, startedTwoApps } from './helpers/started-repo';
import { treeHashes } from './helpers/tree-hash';

/** One writer per output: concurrent `advance` processes serialise on the output's lock; no step is lost. */
const BIN = path.join(__dirname, '..', 'bin', 'rollgen');
const OUT = OUTPUT;
let tmp: string;

beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-lock-'))));
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const env = (timeout: string) => ({ ...process.env, ROLLGEN_LOCK_TIMEOUT: timeout });

async function startedAt(name: string): Promise<string> {
  return startedRepo(path.join(tmp, name));
}

function advanceProcess(cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'advance'], { cwd, env: env('60') });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

function writeLock(repo: string, pid: number, host = os.hostname()): void {
  fs.writeFileSync(path.join(repo, OUT, LOCK_FILE), `${pid}\n${host}\n`);
}

test('four advance processes at once make four steps, as four in a row do', async () => {
  const concurrent = await startedAt('concurrent');
  const sequential = await startedAt('sequential');
  for (let i = 0; i < 4; i++) expect((await runCli(['advance'], sequential)).code).toBe(0);
  const runs = await Promise.all([1, 2, 3, 4].map(() => advanceProcess(concurrent)));
  expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
  const moves = runs.map((r) => /rollouts-demo: (.*) ->/.exec(r.stdout)?.[1]).sort();
  expect(moves).toEqual(['start', 'step 1 of 4', 'step 2 of 4', 'step 3 of 4']);
  expect(treeHashes(path.join(concurrent, OUT))).toEqual(treeHashes(path.join(sequential, OUT)));
});

test('a run that cannot get the lock in time fails naming the owner, and writes nothing', async () => {
  const repo = await startedAt('held');
  writeLock(repo, process.pid); // this test process is alive: the lock is not stale
  const before = treeHashes(repo);
  const r = await runCli(['advance'], repo, '', { env: env('0') });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`is being written by another rollgen run (pid ${process.pid} on ${os.hostname()})`);
  expect(treeHashes(repo)).toEqual(before);
});

test('a lock from another host is never judged stale', async () => {
  const repo = await startedAt('remote');
  writeLock(repo, 1, 'some-other-runner');
  const r = await runCli(['advance'], repo, '', { env: env('0') });
  expect(r).toMatchObject({ code: 1, stderr: expect.stringContaining('pid 1 on some-other-runner') });
});

test('the lock of a run that died (SIGKILL) is taken over', async () => {
  const repo = await startedAt('stale');
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  writeLock(repo, dead);
  const r = await runCli(['advance'], repo, '', { env: env('0') });
  expect(r.code).toBe(0);
  expect(fs.existsSync(path.join(repo, OUT, LOCK_FILE))).toBe(false);
});

test('the locks of one run share one file (linked, no inode each): a killed run leaves both to take over', async () => {
  const repo = await startedTwoApps(path.join(tmp, 'two'));
  const killed = spawnSync(process.execPath, [BIN, 'advance'], {
    cwd: repo,
    env: { ...env('0'), ROLLGEN_TEST_CRASH_AT: 'stage-file' },
  });
  expect(killed.signal).toBe('SIGKILL');
  const locks = [OUT, path.join('deploy', 'echo2')].map((o) => path.join(repo, o, LOCK_FILE));
  const stats = locks.map((l) => fs.lstatSync(l));
  expect(stats.every((s) => s.isFile() && s.nlink === 2)).toBe(true);
  expect(stats[1].ino).toBe(stats[0].ino);
  expect(fs.readFileSync(locks[1], 'utf8')).toBe(`${killed.pid}\n${os.hostname()}\n`);
  const r = await runCli(['advance'], repo, '', { env: env('0') });
  expect(r.code).toBe(0);
  expect(locks.filter((l) => fs.existsSync(l))).toEqual([]);
});

/** `bin/rollgen advance` as a user runs it, with ROLLGEN_LOCK_TIMEOUT `timeout` seconds. */
function advanceNow(cwd: string, timeout: string) {
  const r = spawnSync(process.execPath, [BIN, 'advance'], { cwd, env: env(timeout), encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A lock as a run killed between creating and writing it leaves it (an older rollgen), `ageS` seconds old. */
function unownedLock(repo: string, content: string, ageS: number): string {
  const file = path.join(repo, OUT, LOCK_FILE);
  fs.writeFileSync(file, content);
  const at = Date.now() / 1000 - ageS;
  fs.utimesSync(file, at, at);
  return file;
}

test.each([
  ['empty', ''],
  ['garbage', 'not a pid\u0000\n'],
])('a lock with no owner (%s) older than 5 s is taken over at once, and the run moves one step', async (_, content) => {
  const repo = await startedAt(`unowned-${_}`);
  const expected = await startedAt(`unowned-${_}-expected`);
  expect((await runCli(['advance'], expected)).code).toBe(0);
  const lock = unownedLock(repo, content, 60);
  // No wait allowed (timeout 0): before, such a lock blocked every run until its deadline.
  const r = advanceNow(repo, '0');
  expect(r).toMatchObject({ code: 0, stdout: expect.stringMatching(/rollouts-demo: start -> step 1 of 4/) });
  expect(r.stderr).not.toContain('waiting');
  expect(fs.existsSync(lock)).toBe(false);
  expect(treeHashes(path.join(repo, OUT))).toEqual(treeHashes(path.join(expected, OUT)));
});

test('a lock with no owner younger than 5 s is waited for, named without an empty pid', async () => {
  const repo = await startedAt('unowned-young');
  unownedLock(repo, '', -3600); // its mtime an hour ahead: young however slow this machine is
  const before = treeHashes(repo);
  const r = advanceNow(repo, '1');
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    'waiting for another rollgen run (a lock with no owner recorded, taken over once 5 s old)',
  );
  expect(r.stderr).toContain('is being written by another rollgen run (a lock with no owner recorded');
  expect(r.stderr).not.toMatch(/pid +on/);
  expect(treeHashes(repo)).toEqual(before);
});

test('a temporary lock name a killed run left is removed by the next run once 5 s old; a young one stays', async () => {
  const repo = await startedAt('lock-temp');
  const temps = [path.join(repo, OUT, `${LOCK_FILE}.99999998.tmp`), path.join(repo, OUT, `${LOCK_FILE}.99999999.tmp`)];
  temps.forEach((t) => fs.writeFileSync(t, '99999998\nsome-host\n'));
  const now = Date.now() / 1000;
  fs.utimesSync(temps[0], now - 60, now - 60);
  fs.utimesSync(temps[1], now + 3600, now + 3600); // young however slow this machine is
  expect(advanceNow(repo, '0').code).toBe(0);
  expect(temps.map((t) => fs.existsSync(t))).toEqual([false, true]);
});
