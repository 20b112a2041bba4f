// Shards and the warm app index (bench/README.md, "The shards section"): N `rollgen pr --shard K/N`
// processes at once against one run on an identical repo (same PRs? wall time, requests), what an
// idle shard costs next to an idle run (warm, restored on a fresh checkout, cold), and one ALB app
// among 250 listener peers against the same app alone, cold, warm and restored.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

import { ROOT, WORK, moveToTrash, writeConfigRepo } from './fixtures.mjs';
import { BENCH_ENV, git, idleRepo, loadFake, measure, seed } from './github.mjs';

const BIN = path.join(ROOT, 'bin', 'rollgen');
const RUNS = Number(process.env.BENCH_SHARD_RUNS ?? 5);
const SHARDS = 4;
/** A quarter of the apps on one ALB listener (one coupled group), the rest kruise-nginx apps. */
const KINDS = ['kruise-nginx', 'kruise-nginx', 'kruise-nginx', 'aliyun-alb'];

/** A fresh app-index directory, optionally holding a copy of `from` (a cache restored). */
function cacheDir(name, from) {
  const dir = path.join(WORK, `cache-${name}`);
  moveToTrash(dir);
  if (from) fs.cpSync(from, dir, { recursive: true });
  else fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The repo checked out again at the same path (a new runner): same files, new inodes and times. */
function freshCheckout(repo) {
  const aside = `${repo}.aside`;
  fs.renameSync(repo, aside);
  fs.cpSync(aside, repo, { recursive: true });
  moveToTrash(aside);
}

/** One rollgen process, synchronously (no fake GitHub answers from this process meanwhile). */
function rollgen(repo, args, cache) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: repo,
    env: { ...BENCH_ENV, ROLLGEN_CACHE_DIR: cache },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`rollgen ${args.join(' ')}: exit ${r.status}\n${r.stderr.slice(0, 2000)}`);
  return performance.now() - t0;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Every PR the fake holds, by branch: title, body and head files, the fake's own address blanked. */
function outcomeDigest(fake) {
  const blank = (t) => t.split(fake.serverUrl).join('SERVER').split(fake.apiUrl).join('API');
  const pulls = [...fake.state.pulls.values()].sort((a, b) => (a.head < b.head ? -1 : 1));
  const h = createHash('sha256');
  for (const p of pulls) {
    h.update(`${p.head}\0${p.title}\0${blank(p.body ?? '')}\0`);
    for (const [f, text] of [...fake.state.filesAt(p.head)].sort(([a], [b]) => (a < b ? -1 : 1)))
      h.update(`${f}\0${blank(text)}\0`);
  }
  return { prs: pulls.length, digest: h.digest('hex').slice(0, 16) };
}

/** `n` apps deployed, then one commit with a new image for every app: n step PRs, one run vs N shards at once. */
async function shardsAgainstOne(FakeGitHub, n) {
  const { repo } = idleRepo(`shards-${n}`, n, KINDS);
  for (const dir of fs.readdirSync(path.join(repo, 'apps')))
    for (const f of fs.readdirSync(path.join(repo, 'apps', dir))) {
      const p = path.join(repo, 'apps', dir, f);
      fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace(/image: (\S+?):\S+/g, 'image: $1:bench-2'));
    }
  git(repo, ['commit', '--quiet', '-am', 'new image everywhere']);
  fs.appendFileSync(path.join(repo, 'rollgen.yaml'), 'pr:\n  maxRequests: 15000\n');
  git(repo, ['commit', '--quiet', '-am', 'budget']);
  const copy = `${repo}-sharded`;
  moveToTrash(copy);
  fs.cpSync(repo, copy, { recursive: true });
  const cache = cacheDir('shards');
  rollgen(copy, ['render', 'app-0000', '--step', '1'], cache); // the index a cache would restore
  const env = { ROLLGEN_TEST_RETRY_UNIT_MS: '1' };
  const [one, many] = [await FakeGitHub.start({ git: true }), await FakeGitHub.start({ git: true })];
  try {
    seed(one, repo);
    seed(many, copy);
    const single = await measure(one, repo, env);
    const t0 = performance.now();
    const parts = await Promise.all(
      Array.from({ length: SHARDS }, (_, k) =>
        measure(many, copy, { ...env, ROLLGEN_CACHE_DIR: cache }, ['--shard', `${k + 1}/${SHARDS}`]),
      ),
    );
    const wall = performance.now() - t0;
    return {
      n,
      single,
      parts,
      wall,
      requests: many.requests.length,
      pushes: many.git.pushes,
      same: JSON.stringify(outcomeDigest(one)) === JSON.stringify(outcomeDigest(many)),
      prs: outcomeDigest(one).prs,
    };
  } finally {
    await one.close();
    await many.close();
    moveToTrash(repo);
    moveToTrash(copy);
  }
}

/** An idle repo of `n` apps: one run, and shard 1/N with the index warm, restored on a fresh checkout, and cold. */
async function idleShard(FakeGitHub, n) {
  const { repo, setupMs } = idleRepo(`shards-idle-${n}`, n, KINDS);
  const warm = cacheDir(`idle-${n}`);
  rollgen(repo, ['render', 'app-0001', '--step', '1'], warm);
  const saved = cacheDir(`idle-${n}-saved`, warm);
  const fake = await FakeGitHub.start({ git: true });
  try {
    seed(fake, repo);
    const shard = ['--shard', `1/${SHARDS}`];
    const one = await measure(fake, repo, { ROLLGEN_CACHE_DIR: warm });
    const shardWarm = await measure(fake, repo, { ROLLGEN_CACHE_DIR: warm }, shard);
    freshCheckout(repo);
    const shardRestored = await measure(fake, repo, { ROLLGEN_CACHE_DIR: cacheDir(`idle-${n}-r`, saved) }, shard);
    freshCheckout(repo);
    const shardCold = await measure(fake, repo, { ROLLGEN_CACHE_DIR: cacheDir(`idle-${n}-c`) }, shard);
    return { n, setupMs, one, shardWarm, shardRestored, shardCold };
  } finally {
    await fake.close();
    moveToTrash(repo);
  }
}

/** `render app-0000 --step 2`: ALB app among `peers` on one listener, against the same app alone. */
function albAmongPeers(peers) {
  const many = writeConfigRepo(`shards-alb-${peers}`, peers + 1, ['aliyun-alb']);
  const alone = writeConfigRepo('shards-alb-1', 1, ['aliyun-alb']);
  const args = ['render', 'app-0000', '--step', '2'];
  const warm = cacheDir('alb-warm');
  const aloneCache = cacheDir('alb-alone');
  rollgen(many, args, warm);
  rollgen(alone, args, aloneCache);
  const saved = cacheDir('alb-saved', warm);
  const rows = { alone: [], warm: [], restored: [], cold: [] };
  for (let i = 0; i < RUNS; i++) {
    rows.alone.push(rollgen(alone, args, aloneCache));
    rows.warm.push(rollgen(many, args, warm));
    freshCheckout(many);
    rows.restored.push(rollgen(many, args, cacheDir('alb-restored', saved)));
    freshCheckout(many);
    rows.cold.push(rollgen(many, args, cacheDir('alb-cold')));
  }
  moveToTrash(many);
  moveToTrash(alone);
  return Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
}

/** An idle repo of `n` kruise-nginx apps, nothing coupled: one run against shard 1/N, warm and cold. */
export async function idleLarge(FakeGitHub, n) {
  const { repo, setupMs } = idleRepo(`shards-idle-large-${n}`, n);
  const warm = cacheDir(`large-${n}`);
  rollgen(repo, ['render', 'app-0001', '--step', '1'], warm);
  const fake = await FakeGitHub.start({ git: true });
  try {
    seed(fake, repo);
    const one = await measure(fake, repo, { ROLLGEN_CACHE_DIR: warm });
    const shardWarm = await measure(fake, repo, { ROLLGEN_CACHE_DIR: warm }, ['--shard', `1/${SHARDS}`]);
    return { n, setupMs, one, shardWarm };
  } finally {
    await fake.close();
    moveToTrash(repo);
  }
}

export async function shardsBench(log) {
  const FakeGitHub = await loadFake();
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const cost = (r) => `${r.requests} req, ${s(r.ms)}`;
  const together = await shardsAgainstOne(FakeGitHub, Number(process.env.BENCH_SHARD_APPS ?? 200));
  log('');
  log(`Shards (test GitHub, ${SHARDS} shards; a quarter of the apps share one ALB listener)`);
  log(
    `${together.n} step PRs: one run ${cost(together.single)}; ${SHARDS} shards at once ${s(together.wall)} wall, ${together.requests} req, ${together.pushes} pushes; shards ${together.parts.map((p) => s(p.ms)).join(', ')}; same PRs: ${together.same ? 'yes' : 'NO'} (${together.prs})`,
  );
  const idle = await idleShard(FakeGitHub, Number(process.env.BENCH_SHARD_IDLE_APPS ?? 1000));
  log(
    `idle, ${idle.n} apps: one run ${cost(idle.one)}; shard 1/${SHARDS}: index warm ${cost(idle.shardWarm)}, restored on a fresh checkout ${cost(idle.shardRestored)}, cold ${cost(idle.shardCold)}`,
  );
  const alb = albAmongPeers(250);
  log(
    `render 1 ALB app among 250 listener peers (median of ${RUNS}): alone ${alb.alone.toFixed(0)} ms; among 250: warm ${alb.warm.toFixed(0)} ms (${(alb.warm / alb.alone).toFixed(1)}x), restored on a fresh checkout ${alb.restored.toFixed(0)} ms (${(alb.restored / alb.alone).toFixed(1)}x), cold ${alb.cold.toFixed(0)} ms (${(alb.cold / alb.alone).toFixed(1)}x)`,
  );
  const large = process.env.BENCH_GITHUB_10000 ? await idleLarge(FakeGitHub, 10000) : undefined;
  if (large)
    log(
      `idle, ${large.n} apps: one run ${cost(large.one)}; shard 1/${SHARDS}, index warm ${cost(large.shardWarm)} (setup ${(large.setupMs / 1000).toFixed(0)} s, untimed)`,
    );
  else log('(BENCH_GITHUB_10000=1 adds the idle run and shard at 10,000 apps)');
  return { together, idle, alb, large };
}
