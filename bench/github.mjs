// The GitHub flow's cost against the test GitHub (test/github/fake-github-server.ts, with its git
// remote: a bare repository behind git's http-backend), `rollgen pr` run as a user runs it:
// requests, writes and pushes per new PR, wall time per new PR, the REST fallback next to it, and
// the requests of an idle run at 1,000 (and 10,000) apps. See bench/README.md.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

import { ROOT, WORK, moveToTrash, writeConfigRepo } from './fixtures.mjs';

const require = createRequire(path.join(ROOT, 'package.json'));
const BIN = path.join(ROOT, 'bin', 'rollgen');
const IDENTITY = ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com'];
/**
 * The environment of every rollgen process: without NODE_EXTRA_CA_CERTS (node would read a CA
 * bundle at every start, ~30 ms, hiding rollgen's own cost), the app index under bench/.work/cache.
 */
export const BENCH_ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS')),
  ROLLGEN_CACHE_DIR: path.join(WORK, 'cache'),
};

/** The fake GitHub, bundled from its TypeScript sources once per bench run. */
export async function loadFake() {
  const out = path.join(WORK, 'fake-github');
  fs.mkdirSync(out, { recursive: true });
  await require('esbuild').build({
    entryPoints: [path.join(ROOT, 'test', 'github', 'fake-github-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: path.join(out, 'fake-github.cjs'),
    logLevel: 'silent',
  });
  // fake/openapi.ts reads its extract next to itself.
  fs.copyFileSync(
    path.join(ROOT, 'test', 'github', 'fake', 'github-openapi.json'),
    path.join(out, 'github-openapi.json'),
  );
  return require(path.join(out, 'fake-github.cjs')).FakeGitHub;
}

export function git(repo, args) {
  const r = spawnSync('git', [...IDENTITY, ...args], { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`git ${args[0]} in ${repo}: ${r.stderr}`);
  return r.stdout;
}

/** A committed repo of `count` apps (kruise-nginx by default); `extraConfig` appended to rollgen.yaml. */
export function makeRepo(name, count, extraConfig = '', kinds = ['kruise-nginx']) {
  const repo = writeConfigRepo(name, count, kinds);
  if (extraConfig) fs.appendFileSync(path.join(repo, 'rollgen.yaml'), extraConfig);
  git(repo, ['init', '--quiet', '--initial-branch=main']);
  git(repo, ['add', '--all']);
  git(repo, ['commit', '--quiet', '-m', 'apps']);
  return repo;
}

/** The fake's main is the checkout's HEAD, on the REST side and in its git remote. */
export function seed(fake, repo) {
  const head = git(repo, ['rev-parse', 'HEAD']).trim();
  const tree = git(repo, ['rev-parse', 'HEAD^{tree}']).trim();
  const files = git(repo, ['ls-files']).split('\n').filter(Boolean);
  fake.state.trees.set(tree, new Map(files.map((p) => [p, fs.readFileSync(path.join(repo, p), 'utf8')])));
  fake.state.commits.set(head, { sha: head, tree, parents: [], message: 'apps' });
  fake.state.branches.set('main', head);
  fake.git.seed(repo);
}

/** `rollgen pr` as a process (the fake answers from this one, so never a synchronous spawn). */
export function runPr(fake, repo, env = {}, args = []) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, 'pr', ...args], {
    cwd: repo,
    env: {
      ...BENCH_ENV,
      GITHUB_TOKEN: fake.token,
      GITHUB_REPOSITORY: fake.repository,
      GITHUB_API_URL: fake.apiUrl,
      GITHUB_SERVER_URL: fake.serverUrl,
      ...env,
    },
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  child.stdout.resume();
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0
        ? resolve(performance.now() - t0)
        : reject(new Error(`rollgen pr: exit ${code}\n${err.slice(0, 2000)}`)),
    ),
  );
}

/** What one run cost: requests, writes (non-GET), git pushes, wall time. */
export async function measure(fake, repo, env, args = []) {
  const before = { requests: fake.requests.length, pushes: fake.git.pushes };
  const ms = await runPr(fake, repo, env, args);
  const requests = fake.requests.slice(before.requests);
  return {
    ms,
    requests: requests.length,
    writes: requests.filter((r) => r.method !== 'GET').length,
    pushes: fake.git.pushes - before.pushes,
  };
}

/** `n` first deploys in one run, then the unchanged rerun; `refuse` plays a refused push (the REST fallback). */
async function newPrs(FakeGitHub, n, { refuse = false, unitMs } = {}) {
  const fake = await FakeGitHub.start({ git: true });
  const repo = makeRepo(`gh-new-${n}${refuse ? '-rest' : ''}`, n, 'pr:\n  maxRequests: 15000\n');
  try {
    seed(fake, repo);
    fake.git.refusePush = refuse;
    const env = unitMs ? { ROLLGEN_TEST_RETRY_UNIT_MS: String(unitMs) } : {};
    const first = await measure(fake, repo, env);
    const opened = fake.state.pulls.size;
    if (opened !== n) throw new Error(`expected ${n} PRs, got ${opened}`);
    const rerun = await measure(fake, repo, env);
    return { n, first, rerun, perPr: { requests: first.requests / n, writes: first.writes / n, ms: first.ms / n } };
  } finally {
    await fake.close();
    moveToTrash(repo);
  }
}

/** `n` apps all deployed and idle (adopt and select landed): what a scheduled run costs when nothing is due. */
/** A committed repo of `n` apps all adopted and selected (two `advance` runs committed, untimed): nothing is due. */
export function idleRepo(name, n, kinds = ['kruise-nginx']) {
  const repo = makeRepo(name, n, '', kinds);
  const t0 = performance.now();
  for (const step of ['adopt', 'select']) {
    const r = spawnSync(process.execPath, [BIN, 'advance'], {
      cwd: repo,
      env: BENCH_ENV,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(`advance (${step}) of ${n} apps: ${r.stderr.slice(0, 2000)}`);
    git(repo, ['add', '--all']);
    git(repo, ['commit', '--quiet', '-m', step]);
  }
  return { repo, setupMs: performance.now() - t0 };
}

/** `n` apps all deployed and idle: what a scheduled run costs when nothing is due. */
async function idle(FakeGitHub, n) {
  const { repo, setupMs } = idleRepo(`gh-idle-${n}`, n);
  const fake = await FakeGitHub.start({ git: true });
  try {
    seed(fake, repo);
    return { n, setupMs, run: await measure(fake, repo, {}) };
  } finally {
    await fake.close();
    moveToTrash(repo);
  }
}

export async function githubBench(log) {
  const FakeGitHub = await loadFake();
  // Production pacing (one write a second, GitHub's advice) for the 20-PR rows: the wall time users see.
  const git20 = await newPrs(FakeGitHub, 20);
  const rest20 = await newPrs(FakeGitHub, 10, { refuse: true });
  // 300 apps (a base-image bump): pacing scaled to 1 ms a second, so the row shows rollgen's own time.
  const git300 = await newPrs(FakeGitHub, Number(process.env.BENCH_GITHUB_APPS ?? 300), { unitMs: 1 });
  const idle1000 = await idle(FakeGitHub, 1000);
  const idle10000 = process.env.BENCH_GITHUB_10000 ? await idle(FakeGitHub, 10000) : undefined;
  const row = (label, r) =>
    log(
      `${label.padEnd(44)} ${String(r.perPr.requests.toFixed(2)).padStart(8)} ${String(r.perPr.writes.toFixed(2)).padStart(8)} ${String(r.first.pushes).padStart(6)} ${(r.perPr.ms / 1000).toFixed(2).padStart(10)} ${String(r.rerun.requests).padStart(8)} ${String(r.rerun.pushes).padStart(8)}`,
    );
  log('');
  log(`${'GitHub flow (test GitHub)'.padEnd(44)} req/PR   write/PR  push  s/new PR   rerun req  rerun push`);
  row('20 new PRs, git push (paced 1 write/s)', git20);
  row('10 new PRs, REST fallback (paced 1 write/s)', rest20);
  row(`${git300.n} new PRs, git push (pacing scaled to 1 ms)`, git300);
  for (const r of [idle1000, idle10000].filter(Boolean))
    log(
      `idle run at ${r.n} apps: ${r.run.requests} request(s), ${r.run.writes} writes, ${r.run.pushes} pushes, ${(r.run.ms / 1000).toFixed(1)} s (setup ${(r.setupMs / 1000).toFixed(0)} s, untimed)`,
    );
  if (!idle10000) log('(BENCH_GITHUB_10000=1 adds the idle run at 10,000 apps)');
  return { git20, rest20, git300, idle1000, idle10000 };
}
