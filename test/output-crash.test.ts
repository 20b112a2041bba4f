import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readOutputDir } from '../src/io/output-dir';
import { runCli } from './helpers/cli';
import { BASE_REPO, OUTPUT, startedRepo, startedTwoApps } from './helpers/started-repo';
import { treeHashes } from './helpers/tree-hash';

/**
 * Crash safety of the output: a real `bin/rollgen` run is killed (SIGKILL, through the
 * ROLLGEN_TEST_CRASH_AT seam) at every write point in turn. After each kill the output, as any
 * reader sees it, is the old state or the new one, and rerunning the command leaves exactly what
 * an uninterrupted history leaves: the command once (killed before the commit point) or twice
 * (killed after it). Never a missing output, a first deploy, or a leftover file.
 */
const BIN = path.join(__dirname, '..', 'bin', 'rollgen');
const OUT = OUTPUT;
let tmp: string;

beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-crash-'))));
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The runs that are not killed run in-process (faster); the killed ones must be real processes. */
async function run(args: readonly string[], cwd: string) {
  return runCli(args, cwd, '', { env: { ...process.env, ROLLGEN_LOCK_TIMEOUT: '0' } });
}

function rollgen(args: readonly string[], cwd: string, crashAt?: number | string) {
  const env = { ...process.env, ROLLGEN_LOCK_TIMEOUT: '0', ROLLGEN_TEST_CRASH_AT: crashAt ? String(crashAt) : '' };
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env });
  return { code: r.status, signal: r.signal, stderr: r.stderr };
}

/** A started repo (helpers/started-repo.ts) after `commands`. */
async function repoAt(name: string, commands: readonly (readonly string[])[]): Promise<string> {
  const repo = await startedRepo(path.join(tmp, name));
  for (const c of commands) expect((await run(c, repo)).code).toBe(0);
  return repo;
}

function view(repo: string, outs: readonly string[] = [OUT]): Record<string, string> {
  return Object.fromEntries(
    outs.flatMap((out) => readOutputDir(path.join(repo, out), repo).files.map((f) => [f.path, f.text])),
  );
}

function copyOf(repo: string, name: string): string {
  const copy = path.join(tmp, name);
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(repo, copy, { recursive: true });
  return copy;
}

/**
 * What a reader of an output directory takes: every file Argo CD's directory mode reads (each
 * .yaml/.yml/.json/.jsonnet file, hidden ones too; Flux's generated kustomization takes a subset of
 * these), by name and bytes. `kubectl kustomize`, Argo CD and Flux build a directory that holds a
 * kustomization file with kustomize.
 */
const READ_BY_ARGO = /\.(ya?ml|json|jsonnet)$/;
const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

function readable(dir: string): string {
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
  const files = names.filter((n) => READ_BY_ARGO.test(n) || KUSTOMIZATION_NAMES.includes(n));
  return JSON.stringify(files.map((n) => [n, fs.readFileSync(path.join(dir, n), 'utf8')]));
}

const INTERRUPTED = 'rollgen-write-interrupted-run-rollgen-again-to-complete-it.yaml';
const kustomize = (dir: string) => spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });

/**
 * The output as the tools see it at a kill point: the old files or the new ones byte for byte (so
 * any tool builds the old or the new state), or else a kustomization (Argo CD and Flux then use
 * kustomize, never their fallbacks) whose build fails naming the interrupted write. Returns whether
 * kustomize ran (only a state that is neither the old nor the new one needs it).
 */
function expectOldNewOrRefused(dir: string, oldDir: string, newDir: string): boolean {
  const seen = readable(dir);
  if (seen === readable(oldDir) || seen === readable(newDir)) return false;
  expect(KUSTOMIZATION_NAMES.filter((n) => fs.existsSync(path.join(dir, n)))).toEqual(['kustomization.yaml']);
  const built = kustomize(dir);
  expect({ status: built.status, stdout: built.stdout }).toEqual({ status: 1, stdout: '' });
  expect(built.stderr).toContain(INTERRUPTED);
  return true;
}

/** A kill at every write point runs the CLI some 20 times (and kustomize): a shared machine may need minutes. */
const CRASH_TEST_TIMEOUT = 300_000;

/** Kills `command` at every write point; returns how many points it has. */
/** `stride` > 1 kills at every stride-th point only (and reports the points there are). */
async function crashEverywhere(before: string, command: readonly string[], outs = [OUT], stride = 1): Promise<number> {
  const once = copyOf(before, 'once');
  expect((await run(command, once)).code).toBe(0);
  const twice = copyOf(once, 'twice');
  await run(command, twice); // the rerun after a committed crash: whatever the command does a second time
  const [viewBefore, viewOnce] = [view(before, outs), view(once, outs)];
  // The old and new states build (each once); a kill point with the same files builds the same.
  for (const out of outs) {
    expect(kustomize(path.join(once, out)).status).toBe(0);
    if (fs.existsSync(path.join(before, out))) expect(kustomize(path.join(before, out)).status).toBe(0);
  }
  let refused = 0;
  for (let n = 1; ; n += stride) {
    const work = copyOf(before, 'work');
    const crashed = rollgen(command, work, n);
    if (crashed.signal !== 'SIGKILL') {
      expect(crashed.code).toBe(0);
      expect(refused).toBeGreaterThan(0); // the states between the old and the new files were met
      return n - 1;
    }
    for (const out of outs)
      if (expectOldNewOrRefused(path.join(work, out), path.join(before, out), path.join(once, out))) refused += 1;
    const committed = /commit-mark|journal-committed|guard|apply-file|remove-file|journal-removed/.test(crashed.stderr);
    expect(view(work, outs)).toEqual(committed ? viewOnce : viewBefore);
    await run(command, work);
    for (const out of outs)
      expect(treeHashes(path.join(work, out))).toEqual(treeHashes(path.join(committed ? twice : once, out)));
  }
}

test(
  'advance that starts a canary (files added), killed at every write point',
  async () => {
    const points = await crashEverywhere(await repoAt('start', []), ['advance']);
    expect(points).toBeGreaterThan(10);
  },
  CRASH_TEST_TIMEOUT,
);

test(
  'a first deploy (no output yet), killed at every second write point',
  async () => {
    const repo = path.join(tmp, 'first');
    fs.cpSync(BASE_REPO, repo, { recursive: true });
    // Its stages, guard and renames are those of any write; every second point still meets each region.
    const points = await crashEverywhere(repo, ['advance'], [OUT], 2);
    expect(points).toBeGreaterThan(5);
  },
  CRASH_TEST_TIMEOUT,
);

test(
  'abort (files removed), killed at every write point',
  async () => {
    const points = await crashEverywhere(await repoAt('abort', [['advance']]), ['abort']);
    expect(points).toBeGreaterThan(5);
  },
  CRASH_TEST_TIMEOUT,
);

test(
  'advance of two apps, written together (one round of flushes), killed at every third write point',
  async () => {
    const repo = await startedTwoApps(path.join(tmp, 'two'));
    // Every third point: the two outputs' stages, commit points and renames interleave, so each region is hit.
    const points = await crashEverywhere(repo, ['advance'], [OUT, path.join('deploy', 'echo2')], 3);
    expect(points).toBeGreaterThan(20);
  },
  CRASH_TEST_TIMEOUT,
);

test('the output an older rollgen moved aside before crashing is restored, not taken for a first deploy', async () => {
  const repo = await repoAt('legacy', [['advance']]);
  const expected = copyOf(repo, 'expected');
  expect((await run(['advance'], expected)).code).toBe(0);
  fs.renameSync(path.join(repo, OUT), path.join(repo, 'deploy', '.echo.rollgen-4242.old'));
  fs.mkdirSync(path.join(repo, 'deploy', '.echo.rollgen-4242'));
  const r = await run(['advance'], repo);
  expect(r).toMatchObject({ code: 0, stderr: expect.stringContaining('restored') });
  expect(treeHashes(path.join(repo, 'deploy'))).toEqual(treeHashes(path.join(expected, 'deploy')));
});

test('the outputs older rollgens moved aside beside one another are each restored to their own output', async () => {
  const repo = await startedTwoApps(path.join(tmp, 'legacy-two'));
  expect((await run(['advance'], repo)).code).toBe(0);
  const expected = copyOf(repo, 'expected');
  expect((await run(['advance'], expected)).code).toBe(0);
  for (const [name, pid] of [
    ['echo', 4242],
    ['echo2', 77],
  ] as const) {
    fs.renameSync(path.join(repo, 'deploy', name), path.join(repo, 'deploy', `.${name}.rollgen-${pid}.old`));
    fs.mkdirSync(path.join(repo, 'deploy', `.${name}.rollgen-${pid}`));
  }
  const r = await run(['advance'], repo);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('restored');
  expect(r.stderr.match(/restored \S+ from \.echo2?\.rollgen-\d+\.old/g)).toHaveLength(2);
  expect(treeHashes(path.join(repo, 'deploy'))).toEqual(treeHashes(path.join(expected, 'deploy')));
});

test('a write stages in the output itself, its marks linked to the lock: no directory or journal file of its own', async () => {
  const work = await repoAt('marks', [['advance']]);
  // Killed just after the commit point of an abort, which both writes files and removes some.
  expect(rollgen(['abort'], work, 'journal-committed').signal).toBe('SIGKILL');
  const out = path.join(work, OUT);
  const entries = fs.readdirSync(out).map((n) => [n, fs.lstatSync(path.join(out, n))] as const);
  expect(entries.filter(([, st]) => !st.isFile())).toEqual([]);
  const lock = fs.lstatSync(path.join(out, '.rollgen-lock'));
  const marks = entries.filter(([n]) => n === '.rollgen-commit' || n.endsWith('.rollgen-del'));
  expect(marks.map(([n]) => n)).toContain('.rollgen-commit');
  expect(marks.some(([n]) => n.endsWith('.rollgen-del'))).toBe(true);
  expect(marks.every(([, st]) => st.ino === lock.ino)).toBe(true);
  expect(entries.some(([n]) => n.endsWith('.rollgen-new'))).toBe(true);
});

/** The files of `to` that differ from `from`'s, staged in `from` as the previous layout's committed journal. */
function stageV1Journal(from: string, to: string): void {
  const [a, b] = [path.join(from, OUT), path.join(to, OUT)];
  const names = (d: string) => fs.readdirSync(d).filter((n) => !n.startsWith('.'));
  const changed = names(b).filter(
    (n) => !fs.existsSync(path.join(a, n)) || !sameFile(path.join(a, n), path.join(b, n)),
  );
  fs.mkdirSync(path.join(a, '.rollgen-txn'));
  changed.forEach((n, i) => fs.copyFileSync(path.join(b, n), path.join(a, '.rollgen-txn', String(i))));
  const remove = names(a).filter((n) => !fs.existsSync(path.join(b, n)));
  const journal = { write: changed.map((name, i) => ({ staged: String(i), name })), remove };
  fs.writeFileSync(path.join(a, '.rollgen-txn', 'journal'), JSON.stringify(journal));
}

const sameFile = (a: string, b: string) => fs.readFileSync(a).equals(fs.readFileSync(b));

test.each([
  ['advance', [['advance']], ['advance']],
  ['abort', [['advance']], ['abort']],
] as const)(
  'a committed write the previous layout (.rollgen-txn) left is read as committed and completed (%s)',
  async (name, before, command) => {
    const repo = await repoAt(`v1-${name}`, before);
    const once = copyOf(repo, `v1-${name}-once`);
    expect((await run(command, once)).code).toBe(0);
    stageV1Journal(repo, once);
    expect(view(repo)).toEqual(view(once));
    const twice = copyOf(once, `v1-${name}-twice`);
    await run(command, twice);
    const r = await run(command, repo);
    expect(r.stderr).toContain('completed the write an interrupted rollgen run committed');
    expect(treeHashes(path.join(repo, OUT))).toEqual(treeHashes(path.join(twice, OUT)));
  },
);

test('an uncommitted write the previous layout left is discarded', async () => {
  const repo = await repoAt('v1-uncommitted', [['advance']]);
  const expected = copyOf(repo, 'v1-uncommitted-expected');
  fs.mkdirSync(path.join(repo, OUT, '.rollgen-txn'));
  fs.writeFileSync(path.join(repo, OUT, '.rollgen-txn', '0'), 'kind: Half\n');
  fs.writeFileSync(path.join(repo, OUT, '.rollgen-txn', 'journal.tmp'), '{"write":[');
  expect(view(repo)).toEqual(view(expected));
  const r = await run(['advance'], repo);
  expect(r.stderr).toContain('discarded the unfinished write');
  await run(['advance'], expected);
  expect(treeHashes(path.join(repo, OUT))).toEqual(treeHashes(path.join(expected, OUT)));
});

test('an error planning a later app leaves every output as it was: what was staged for earlier ones is removed', async () => {
  const repo = await startedTwoApps(path.join(tmp, 'staged-then-error'));
  expect((await run(['advance'], repo)).code).toBe(0);
  // A hand edit in the second output (drift) fails its plan after the first output's files were staged.
  const edited = path.join(repo, 'deploy', 'echo2', 'service-echoserver.yaml');
  fs.appendFileSync(edited, '# edited by hand\n');
  const before = treeHashes(path.join(repo, 'deploy'));
  const r = await run(['advance'], repo);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('output changed by hand');
  expect(treeHashes(path.join(repo, 'deploy'))).toEqual(before);
});

test('status and validate name a write killed mid-apply and what completes it; the next advance completes it', async () => {
  const work = await repoAt('named', []);
  const once = copyOf(work, 'named-once');
  expect((await run(['advance'], once)).code).toBe(0);
  expect(rollgen(['advance'], work, 'guard').signal).toBe('SIGKILL');
  expect(kustomize(path.join(work, OUT)).stderr).toContain(INTERRUPTED);
  for (const command of [['status'], ['validate'], ['status', '-o', 'json']]) {
    const r = await run(command, work);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`warning: ${OUT} holds a write an interrupted rollgen run committed but did not finish`);
    expect(r.stderr).toContain('next rollgen advance, abort, promote or retry of this app completes it first');
  }
  const r = await run(['advance'], work);
  expect(r.stderr).toContain('completed the write an interrupted rollgen run committed');
  expect(kustomize(path.join(work, OUT)).status).toBe(0);
});

test('a guard without its write (an output copied mid-write) keeps failing every build until it is written anew', async () => {
  const work = await repoAt('orphan', []);
  expect(rollgen(['advance'], work, 'guard').signal).toBe('SIGKILL');
  const out = path.join(work, OUT);
  // What a copy of the visible files (or a commit of the tracked ones) takes: no commit mark, no staged names.
  for (const n of fs.readdirSync(out)) if (n.startsWith('.')) fs.rmSync(path.join(out, n));
  const status = await run(['status'], work);
  expect(status.stderr).toContain(`warning: ${OUT}/kustomization.yaml is the guard of a write interrupted elsewhere`);
  const refused = await run(['advance'], work);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('rerun with --force');
  expect(kustomize(out).stderr).toContain(INTERRUPTED); // still refused: never the fallback of a directory without one
  expect((await run(['advance', '--force'], work)).code).toBe(0);
  expect(kustomize(out).status).toBe(0);
});
