// A fleet rollout's cost against the test GitHub (test/github/fake-github-server.ts with its git
// remote), bin/rollgen run as the scheduled workflow runs it: one app in 200 clusters (targets) in
// 4 waves (10, 40, 50, 100 targets) rolls a new image out from the first PR to the last clean-up.
// A person merges the PRs whose gate is manual; rollgen merges the rest. Prints the PRs opened, the
// requests per run (most, mean, total) and the wall time. See docs/fleet.md, bench/README.md.
//
//   node bench/fleet.mjs            (BENCH_FLEET_TARGETS=40 for a smaller fleet)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

import { ROOT, WORK, moveToTrash } from './fixtures.mjs';
import { git, loadFake, runPr as runPrWith, seed } from './github.mjs';

/** `rollgen pr` as the scheduled workflow runs it, with retries scaled down (the fake answers at once). */
const runPr = (fake, repo) => runPrWith(fake, repo, { ROLLGEN_TEST_RETRY_UNIT_MS: '1' });

// The test GitHub serves plain HTTP on 127.0.0.1: a CA bundle from the environment has no say here.
delete process.env.NODE_EXTRA_CA_CERTS;

const BIN = path.join(ROOT, 'bin', 'rollgen');
const EXAMPLE = path.join(ROOT, 'examples', 'kruise-nginx', 'echoserver');

/** Ring sizes of the 4 waves for `n` targets: 5%, 20%, 25%, 50%. */
function rings(n) {
  const first = Math.max(1, Math.round(n * 0.05));
  const second = Math.max(1, Math.round(n * 0.2));
  const third = Math.max(1, Math.round(n * 0.25));
  return [first, second, third, n - first - second - third];
}

/** One app (kruise-nginx's echoserver, pauses of 0 s) with `n` targets in 4 waves, committed. */
function fleetRepo(n) {
  const repo = path.join(WORK, `fleet-${n}`);
  moveToTrash(repo);
  // A source per cluster (as an overlay built per cluster would be): web/<target>.
  const names = Array.from({ length: n }, (_, i) => `c${String(i + 1).padStart(3, '0')}`);
  for (const t of names) {
    fs.mkdirSync(path.join(repo, 'web', t), { recursive: true });
    for (const f of fs.readdirSync(EXAMPLE)) {
      const text = fs.readFileSync(path.join(EXAMPLE, f), 'utf8').replace(/pause: \{[^}]*\}/g, 'pause: {duration: 0}');
      fs.writeFileSync(path.join(repo, 'web', t, f), text);
    }
  }
  const sizes = rings(n);
  const ring = (i) => sizes.findIndex((_, k) => i < sizes.slice(0, k + 1).reduce((a, b) => a + b, 0)) + 1;
  const targets = Array.from(
    { length: n },
    (_, i) => `      - {name: c${String(i + 1).padStart(3, '0')}, labels: {ring: r${ring(i)}}}`,
  );
  const waves = sizes.map((_, k) => `  - name: ring-${k + 1}\n    select: {labels: {ring: r${k + 1}}}`);
  fs.writeFileSync(
    path.join(repo, 'rollgen.yaml'),
    `apps:\n  - name: web\n    source: web/{target}\n    output: clusters/{target}/{name}\n    targets:\n${targets.join('\n')}\nwaves:\n${waves.join('\n')}\npr:\n  maxRequests: 15000\n`,
  );
  git(repo, ['init', '--quiet', '--initial-branch=main']);
  git(repo, ['add', '--all']);
  git(repo, ['commit', '--quiet', '-m', 'fleet']);
  return { repo, sizes };
}

/** Local mode up to every target adopted (not measured: the rollout of a new image is). */
function adoptLocally(repo) {
  for (let i = 0; i < 20; i++) {
    const head = git(repo, ['rev-parse', 'HEAD']);
    const r = spawnSync(process.execPath, [BIN, 'advance', '--commit'], {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(`advance --commit: ${r.stderr.slice(0, 2000)}`);
    if (git(repo, ['rev-parse', 'HEAD']) === head) return;
  }
  throw new Error('adoption never settled');
}

/** A person merges every open PR whose gate is manual, as the merge route does (not a request rollgen makes). */
function personMerges(fake) {
  let merged = 0;
  for (const pull of fake.state.pulls.values()) {
    const manual = (pull.labels ?? []).some((l) => (typeof l === 'string' ? l : l.name) === 'rollgen:manual');
    if (pull.state !== 'open' || !manual) continue;
    const head = fake.state.headOf(pull);
    const base = fake.state.branches.get(pull.base);
    const commit = fake.state.addCommit(fake.state.commits.get(head).tree, [base], `Merge #${pull.number}`);
    fake.state.branches.set(pull.base, commit.sha);
    Object.assign(pull, {
      state: 'closed',
      lastHeadSha: head,
      mergedAt: fake.state.now(),
      closedAt: fake.state.now(),
      mergeCommitSha: commit.sha,
    });
    merged++;
  }
  return merged;
}

/** What the fake's main holds reaches the checkout as one commit, and the fake is seeded from it again. */
function land(fake, repo) {
  const main = fake.state.branches.get('main');
  if (main === git(repo, ['rev-parse', 'HEAD']).trim()) return false;
  const files = fake.state.trees.get(fake.state.commits.get(main).tree);
  for (const p of git(repo, ['ls-files']).split('\n').filter(Boolean)) if (!files.has(p)) fs.rmSync(path.join(repo, p));
  for (const [p, content] of files) {
    fs.mkdirSync(path.dirname(path.join(repo, p)), { recursive: true });
    fs.writeFileSync(path.join(repo, p), content);
  }
  git(repo, ['add', '--all']);
  git(repo, ['commit', '--quiet', '--allow-empty', '-m', 'merged on main']);
  seed(fake, repo);
  return true;
}

export async function fleetBench(log, n = Number(process.env.BENCH_FLEET_TARGETS ?? 200)) {
  const FakeGitHub = await loadFake();
  const { repo, sizes } = fleetRepo(n);
  const t0 = performance.now();
  adoptLocally(repo);
  const setupMs = performance.now() - t0;
  for (const t of fs.readdirSync(path.join(repo, 'web'))) {
    const file = path.join(repo, 'web', t, 'deployment.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/image: (\S+):\S+/, 'image: $1:bench-next'));
  }
  git(repo, ['commit', '--quiet', '-am', 'new image']);
  const fake = await FakeGitHub.start({ git: true });
  const runs = [];
  try {
    seed(fake, repo);
    for (let i = 0; i < 200; i++) {
      const before = fake.requests.length;
      const ms = await runPr(fake, repo);
      const requests = fake.requests.slice(before);
      runs.push({ ms, requests: requests.length, writes: requests.filter((r) => r.method !== 'GET').length });
      const byPerson = personMerges(fake);
      const moved = land(fake, repo);
      const open = [...fake.state.pulls.values()].filter((p) => p.state === 'open').length;
      const r = runs.at(-1);
      process.stderr.write(
        `run ${runs.length}: ${r.requests} requests (${r.writes} writes), ${(r.ms / 1000).toFixed(1)} s; PRs ${fake.state.pulls.size}, open ${open}\n`,
      );
      if (!moved && byPerson === 0 && open === 0 && runs.at(-1).writes === 0) break;
    }
    const pulls = [...fake.state.pulls.values()];
    const last = path.join(repo, 'clusters', `c${String(n).padStart(3, '0')}`, 'web');
    const settled = fs.readdirSync(last).map((f) => fs.readFileSync(path.join(last, f), 'utf8'));
    if (!settled.some((t) => t.includes('bench-next'))) throw new Error('the last wave never received the new image');
    const total = runs.reduce((a, r) => a + r.requests, 0);
    const most = Math.max(...runs.map((r) => r.requests));
    const result = {
      targets: n,
      waves: sizes,
      prsOpened: pulls.length,
      prsMerged: pulls.filter((p) => p.mergedAt).length,
      runs: runs.length,
      requestsTotal: total,
      requestsPerRunMax: most,
      requestsPerRunMean: total / runs.length,
      secondsPerRunMean: runs.reduce((a, r) => a + r.ms, 0) / runs.length / 1000,
      adoptSetupSeconds: setupMs / 1000,
    };
    log('');
    log(`Fleet rollout (test GitHub): ${n} targets in 4 waves (${sizes.join(', ')}), one new image`);
    log(`  PRs opened ${result.prsOpened} (merged ${result.prsMerged}); per-target PRs would be ${n} x the same steps`);
    log(
      `  rollgen pr runs ${result.runs}; requests per run: most ${most}, mean ${result.requestsPerRunMean.toFixed(1)}; total ${total}`,
    );
    log(
      `  wall time per run: mean ${result.secondsPerRunMean.toFixed(1)} s (adoption by advance --commit, untimed: ${result.adoptSetupSeconds.toFixed(0)} s)`,
    );
    return result;
  } finally {
    await fake.close();
    moveToTrash(repo);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await fleetBench((line) => console.log(line));
  console.log(JSON.stringify(result));
}
