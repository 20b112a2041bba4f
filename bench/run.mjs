#!/usr/bin/env node
// rollgen benchmark: reports only, never fails on a missed target (see bench/README.md).
//
//   npm run bench                 # BENCH_RUNS=15 timed runs per row, after 2 warm-up runs
//   BENCH_RUNS=5 npm run bench    # quicker
//   BENCH_RUNS_1000=3 npm run bench  # fewer repetitions of the 1,000-app loops only
//   BENCH_ONLY=advance npm run bench # only the advance rows (ALB listener, mixed apps)
//   BENCH_ONLY=github npm run bench  # only the GitHub flow's requests and pushes (bench/github.mjs)
//   BENCH_ONLY=fleet npm run bench   # only a 200-target fleet rollout through rollgen pr (bench/fleet.mjs)
//
// Needs dist/cli.js (`npm run build`). Writes only under bench/.work/ (gitignored).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';

import { ROOT, WORK, appDirs, awaitQuietDisk, emptyTrash, moveToTrash, writeConfigRepo } from './fixtures.mjs';
import { writeYamlFloor } from './yaml-floor.mjs';
import { githubBench } from './github.mjs';
import { shardsBench } from './shards.mjs';
import { fleetBench } from './fleet.mjs';

const require = createRequire(path.join(ROOT, 'package.json'));
const YAML = require('yaml');

const EXAMPLE = path.join(ROOT, 'examples', 'kruise-nginx', 'echoserver');
const BIN = path.join(ROOT, 'bin', 'rollgen');
const DIST = path.join(ROOT, 'dist', 'cli.js');
const STEP = '2';
const APPS = 1000;
const WARMUP = 2;
const RUNS = positiveInt('BENCH_RUNS', 15);
const RUNS_1000 = positiveInt('BENCH_RUNS_1000', RUNS);
const RUNS_ADVANCE = positiveInt('BENCH_RUNS_ADVANCE', Math.min(RUNS, 5));
const TARGET_ONE = 1.8;
const TARGET_1000 = 2.0;
const TARGET_ONE_IN_N = 1.5;
const TARGET_ADVANCE = 1.5;
/** Sections to run (comma-separated: cold, repo, render, advance, github, shards); unset runs them all. */
const ONLY = onlySections(process.env.BENCH_ONLY);
const REPO_APPS = 400;
const ALB_APPS = 300;
const MIXED_APPS = 1000;
/** NODE_EXTRA_CA_CERTS makes node read a CA bundle at every start (~30 ms here): it would hide rollgen's own cost. */
const ENV = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS')),
  // The app index of single-app commands (src/app/app-index.ts) lives here, not in the user's cache.
  ROLLGEN_CACHE_DIR: path.join(WORK, 'cache'),
};

function onlySections(raw) {
  const all = ['cold', 'repo', 'render', 'advance', 'github', 'shards', 'fleet'];
  if (raw === undefined || raw === '') return new Set(all);
  const picked = raw.split(',').map((s) => s.trim());
  const unknown = picked.filter((s) => !all.includes(s));
  if (unknown.length > 0) {
    console.error(`BENCH_ONLY: unknown section(s) ${unknown.join(', ')}; known: ${all.join(', ')}`);
    process.exit(2);
  }
  return new Set(picked);
}

function positiveInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`${name} must be a positive integer, got "${raw}"; using ${fallback}`);
    return fallback;
  }
  return n;
}

// ---------------------------------------------------------------- statistics

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  const p90 = s[Math.min(s.length - 1, Math.ceil(0.9 * s.length) - 1)]; // nearest rank
  return { median, p90, min: s[0], max: s[s.length - 1], n: s.length };
}

/**
 * Runs each of `fns` WARMUP times untimed, then `runs` times timed, round-robin (a, b, c, a, b, c, ...)
 * so that a slow patch on a shared machine hits every row, not just one: the ratios stay fair.
 * A `fn` throws if its run is wrong.
 */
function measureInterleaved(fns, runs = RUNS) {
  for (let i = 0; i < WARMUP; i++) for (const fn of fns) fn();
  const samples = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    fns.forEach((fn, j) => {
      const t0 = nowMs();
      fn();
      samples[j].push(nowMs() - t0);
    });
  }
  return samples.map(stats);
}

// ---------------------------------------------------------------- processes

/** One whole process, stdout captured (then dropped) so it can be checked non-empty. */
function spawnChecked(cmd, args, what, cwd = ROOT) {
  const r = spawnSync(cmd, args, { cwd, env: ENV, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${what}: exit ${r.status ?? r.signal}\n${r.stderr}`);
  return r;
}

function spawnNonEmpty(cmd, args, what, cwd = ROOT) {
  const r = spawnChecked(cmd, args, what, cwd);
  if (r.stdout.length === 0) throw new Error(`${what}: empty stdout`);
}

function hasKubectl() {
  const r = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
  return !(r.error && r.error.code === 'ENOENT');
}

// ---------------------------------------------------------------- fixtures

function readExample() {
  return fs
    .readdirSync(EXAMPLE)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort()
    .map((name) => {
      const text = fs.readFileSync(path.join(EXAMPLE, name), 'utf8');
      const kinds = YAML.parseAllDocuments(text).map((d) => d.get('kind'));
      return { name, text, kinds };
    });
}

/** The app's plain manifests (no Rollout) with a kustomization listing them. */
function writeKustomizeApp(example) {
  const dir = path.join(WORK, 'kustomize-app');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const plain = example.filter((f) => f.kinds.every((k) => ['Deployment', 'Service', 'Ingress'].includes(k)));
  for (const f of plain) fs.writeFileSync(path.join(dir, f.name), f.text);
  const kustomization = [
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources:',
    ...plain.map((f) => `  - ${f.name}`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'kustomization.yaml'), kustomization);
  return { dir, files: plain.map((f) => f.name) };
}

// ---------------------------------------------------------------- in-process loops

function collectingContext(cwd = ROOT) {
  const out = [];
  const err = [];
  return {
    out,
    err,
    ctx: { cwd, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), readStdin: async () => [] },
  };
}

async function renderAll(main, dirs) {
  let bytes = 0;
  for (const dir of dirs) {
    const { out, err, ctx } = collectingContext();
    const code = await main(['render', dir, '--step', STEP], ctx);
    if (code !== 0) throw new Error(`render ${dir}: exit ${code}\n${err.join('')}`);
    for (const t of out) bytes += t.length;
    if (out.length === 0) throw new Error(`render ${dir}: empty stdout`);
  }
  return bytes;
}

/** Reads every YAML file of `dirs`, parses it and turns each document back into text. */
function parseFloor(dirs) {
  let bytes = 0;
  for (const dir of dirs) {
    const abs = path.resolve(ROOT, dir);
    for (const name of fs.readdirSync(abs)) {
      if (!/\.ya?ml$/.test(name)) continue;
      const text = fs.readFileSync(path.join(abs, name), 'utf8');
      for (const doc of YAML.parseAllDocuments(text)) bytes += String(doc).length;
    }
  }
  return bytes;
}

/** `rollgen advance` of every app of the repo, in this process, from no output (the first deploy writes every file). */
async function advanceRepo(main, repo) {
  moveToTrash(path.join(repo, 'deploy'));
  settleDisk();
  const { out, err, ctx } = collectingContext(repo);
  const t = timer();
  const code = await main(['advance'], ctx);
  const spent = t();
  if (code !== 0) throw new Error(`advance in ${repo}: exit ${code}\n${err.join('').slice(0, 2000)}`);
  if (out.length === 0) throw new Error(`advance in ${repo}: nothing printed`);
  return spent;
}

/**
 * Untimed, before each timed advance and floor: `sync`, so the disk work the previous run left
 * pending (dirty pages) is not paid by whichever run comes next. The previous output is moved to
 * the trash, not deleted (see moveToTrash): deleting it made the next run's file creations pay
 * for every inode freed in the minute before, on either side.
 */
function settleDisk() {
  spawnSync('sync', [], { stdio: 'ignore' });
}

/** The floor of advance: read every source file, parse it, write each document back as text to the app's output. */
function writeFloor(repo) {
  moveToTrash(path.join(repo, 'floor'));
  settleDisk();
  const t = timer();
  for (const dir of appDirs(repo)) {
    const out = path.join(repo, 'floor', path.basename(dir));
    fs.mkdirSync(out, { recursive: true });
    for (const name of fs.readdirSync(dir)) {
      if (!/\.ya?ml$/.test(name)) continue;
      const docs = YAML.parseAllDocuments(fs.readFileSync(path.join(dir, name), 'utf8'));
      docs.forEach((doc, i) => fs.writeFileSync(path.join(out, `${i}-${name}`), String(doc)));
    }
  }
  return t();
}

/** Starts a clock; calling the result gives the wall and the CPU time (user + system of this process) since, in ms. */
function timer() {
  const t0 = nowMs();
  const c0 = process.cpuUsage();
  return () => {
    const c = process.cpuUsage(c0);
    return { wall: nowMs() - t0, cpu: (c.user + c.system) / 1000 };
  };
}

/** Alternating advance / floor runs (setup untimed inside each), after one warm-up of each. */
async function measureAdvance(main, repo, runs) {
  await advanceRepo(main, repo);
  writeFloor(repo);
  const adv = [];
  const floor = [];
  for (let i = 0; i < runs; i++) {
    adv.push(await advanceRepo(main, repo));
    floor.push(writeFloor(repo));
  }
  const cpu = (samples) => stats(samples.map((s) => s.cpu));
  return {
    advance: stats(adv.map((s) => s.wall)),
    floor: stats(floor.map((s) => s.wall)),
    advanceCpu: cpu(adv),
    floorCpu: cpu(floor),
  };
}

// ---------------------------------------------------------------- report

const fmt = (n) => (n === undefined || n === null ? '-' : n.toFixed(1));
const fmtRatio = (r) => (r === null ? '-' : r.toFixed(2));
const verdict = (r, target) => (r === null ? '' : `${r <= target ? 'meets' : 'MISSES'} target <= ${target}`);

function printTable(rows) {
  const head = ['row', 'median ms', 'p90 ms', 'runs', 'note'];
  const body = rows.map((r) =>
    r.skipped
      ? [r.name, '-', '-', '-', r.skipped]
      : [r.name, fmt(r.s.median), fmt(r.s.p90), String(r.s.n), r.note ?? ''],
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
}

// ---------------------------------------------------------------- sections

/** One cold process against `node -e 0` (and kubectl kustomize for reference), round-robin. */
function coldProcesses(example, yamlFloor) {
  const renderArgs = ['render', path.relative(ROOT, EXAMPLE), '--step', STEP];
  const kapp = writeKustomizeApp(example);
  const fns = [
    () => spawnNonEmpty(BIN, renderArgs, 'bin/rollgen'),
    () => spawnChecked('node', ['-e', '0'], 'node -e 0'),
    () => spawnNonEmpty('node', [yamlFloor, EXAMPLE], 'yaml floor'),
  ];
  let kustomizeSkip = null;
  if (!hasKubectl()) kustomizeSkip = 'kubectl not found: skipped';
  else {
    const kfn = () => spawnNonEmpty('kubectl', ['kustomize', kapp.dir], 'kubectl kustomize');
    try {
      kfn();
      fns.push(kfn);
    } catch (e) {
      kustomizeSkip = `kubectl kustomize failed: skipped (${String(e.message).split('\n')[0]})`;
    }
  }
  const [one, floor, yaml, kustomize = null] = measureInterleaved(fns);
  const rows = [
    { name: `bin/rollgen render echoserver --step ${STEP}`, s: one, note: 'cold process' },
    { name: 'node -e 0', s: floor, note: 'cold process floor' },
    { name: 'yaml floor (same files)', s: yaml, note: 'cold process: read, parse, print with yaml only' },
    kustomize
      ? { name: 'kubectl kustomize (plain manifests)', s: kustomize, note: kapp.files.join(', ') }
      : { name: 'kubectl kustomize (plain manifests)', skipped: kustomizeSkip },
  ];
  return { rows, one, floor, yaml, kustomize };
}

/** One app of a rollgen.yaml repo of REPO_APPS apps against the same app in a repo of its own: cold processes. */
function oneAppInRepo() {
  const big = writeConfigRepo('repo-400', REPO_APPS, ['kruise-nginx', 'argo-nginx', 'aliyun-alb']);
  const alone = writeConfigRepo('repo-1', 1, ['kruise-nginx']);
  // The app index trusts no file changed in the last 3 s (RACY_MS in src/app/app-index.ts): until
  // then every run loads all 400 apps. Wait it out, so the warm-ups store the index the timed runs use.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3500);
  const args = ['render', 'app-0000', '--step', STEP];
  const [inRepo, single] = measureInterleaved([
    () => spawnNonEmpty(BIN, args, 'render app-0000 in the big repo', big),
    () => spawnNonEmpty(BIN, args, 'render app-0000 alone', alone),
  ]);
  return {
    rows: [
      { name: `render app-0000 in a ${REPO_APPS}-app repo`, s: inRepo, note: 'cold process, rollgen.yaml repo' },
      { name: 'render app-0000 alone', s: single, note: 'cold process, the same app as the only one' },
    ],
    ratio: inRepo.median / single.median,
  };
}

/** render of 1,000 apps in this process against the parse floor, alternating. */
async function thousandRenders(main) {
  const tGen = nowMs();
  const dirs = appDirs(writeConfigRepo('repo', APPS, ['kruise-nginx']));
  const genMs = nowMs() - tGen;
  // First passes count as the first warm-up; render's is reported: it is the one a CI job pays.
  let t0 = nowMs();
  const renderBytes = await renderAll(main, dirs);
  const renderFirst = nowMs() - t0;
  t0 = nowMs();
  const parseBytes = parseFloor(dirs);
  const parseFirst = nowMs() - t0;
  for (let i = 0; i < WARMUP - 1; i++) {
    await renderAll(main, dirs);
    parseFloor(dirs);
  }
  const renderSamples = [];
  const parseSamples = [];
  for (let i = 0; i < RUNS_1000; i++) {
    t0 = nowMs();
    await renderAll(main, dirs);
    renderSamples.push(nowMs() - t0);
    t0 = nowMs();
    parseFloor(dirs);
    parseSamples.push(nowMs() - t0);
  }
  const render = stats(renderSamples);
  const parse = stats(parseSamples);
  return {
    rows: [
      {
        name: `render ${APPS} apps, one process`,
        s: render,
        note: `main() per app; first pass ${fmt(renderFirst)} ms; ${(renderBytes / 1024).toFixed(0)} KiB out`,
      },
      {
        name: `parse floor, ${APPS} apps`,
        s: parse,
        note: `read + parseAllDocuments + String(doc); first pass ${fmt(parseFirst)} ms; ${(parseBytes / 1024).toFixed(0)} KiB`,
      },
    ],
    render,
    parse,
    renderFirst,
    genMs,
  };
}

/** advance of whole repos against their read + parse + write floor: one ALB listener at two sizes, and mixed apps. */
async function advances(main) {
  const half = await measureAdvance(main, writeConfigRepo('alb-half', ALB_APPS / 2, ['aliyun-alb']), RUNS_ADVANCE);
  const alb = await measureAdvance(main, writeConfigRepo('alb', ALB_APPS, ['aliyun-alb']), RUNS_ADVANCE);
  const mixed = await measureAdvance(
    main,
    writeConfigRepo('mixed', MIXED_APPS, ['kruise-nginx', 'argo-nginx', 'aliyun-alb']),
    RUNS_ADVANCE,
  );
  const cpuNote = (s) => `CPU ${fmt(s.median)} ms`;
  const row = (name, m, note) => [
    { name: `advance ${name}`, s: m.advance, note: `${note}; ${cpuNote(m.advanceCpu)}` },
    { name: `  write floor, ${name}`, s: m.floor, note: `read + parse + write each document; ${cpuNote(m.floorCpu)}` },
  ];
  return {
    rows: [
      ...row(`${ALB_APPS / 2} ALB apps, one listener`, half, 'one process, first deploy'),
      ...row(`${ALB_APPS} ALB apps, one listener`, alb, 'one process, first deploy'),
      ...row(`${MIXED_APPS} mixed apps`, mixed, 'kruise-nginx, argo-nginx, aliyun-alb in turn'),
    ],
    ratioAlb: alb.advance.median / alb.floor.median,
    ratioMixed: mixed.advance.median / mixed.floor.median,
    // Per-app cost at 300 over per-app cost at 150, each against its own floor: 1.0 = linear.
    growthAlb: alb.advance.median / alb.floor.median / (half.advance.median / half.floor.median),
    cpuRatioAlb: alb.advanceCpu.median / alb.floorCpu.median,
    cpuRatioMixed: mixed.advanceCpu.median / mixed.floorCpu.median,
    alb,
    mixed,
  };
}

// ---------------------------------------------------------------- main

async function mainBench() {
  if (!fs.existsSync(DIST)) {
    console.error('bench: dist/cli.js is missing; run `npm run build` first');
    process.exit(1);
  }
  const newestSrc = newestMtime(path.join(ROOT, 'src'), path.join(ROOT, 'generators'));
  if (newestSrc > fs.statSync(DIST).mtimeMs)
    console.error(
      'bench: warning: dist/cli.js is older than src/ or generators/; run `npm run build` for current numbers',
    );
  fs.mkdirSync(WORK, { recursive: true });
  console.log(
    `rollgen bench: node ${process.version}, ${RUNS} runs (${RUNS_1000} for the 1,000-app renders, ${RUNS_ADVANCE} for advance) after warm-ups; load average ${loadAverage()}`,
  );
  console.log('');

  const cold = ONLY.has('cold')
    ? coldProcesses(readExample(), await writeYamlFloor(ROOT, path.join(WORK, 'yaml-floor')))
    : undefined;
  const inRepo = ONLY.has('repo') ? oneAppInRepo() : undefined;
  const { main } = require(DIST);
  const many = ONLY.has('render') ? await thousandRenders(main) : undefined;
  if (ONLY.has('advance')) await awaitQuietDisk(console.log);
  const adv = ONLY.has('advance') ? await advances(main) : undefined;
  printTable([cold, inRepo, many, adv].flatMap((section) => section?.rows ?? []));

  const ratioOne = cold ? cold.one.median / cold.floor.median : null;
  const ratio1000 = many ? many.render.median / many.parse.median : null;
  const ratioLine = (label, r, target) => console.log(`${label} = ${fmtRatio(r)}  (${verdict(r, target)})`);
  console.log('');
  if (cold) {
    ratioLine('ratio one       = render / node floor         ', ratioOne, TARGET_ONE);
    console.log(
      `yaml floor      = ${fmtRatio(cold.yaml.median / cold.floor.median)}x node; rollgen's cold render is ${fmtRatio(cold.one.median / cold.yaml.median)}x the yaml floor`,
    );
  }
  if (inRepo) ratioLine(`ratio one in N  = render in ${REPO_APPS} / alone       `, inRepo.ratio, TARGET_ONE_IN_N);
  if (many) ratioLine('ratio 1000      = render 1000 / parse floor    ', ratio1000, TARGET_1000);
  if (adv) {
    ratioLine(`ratio alb       = advance ${ALB_APPS} ALB / write floor`, adv.ratioAlb, TARGET_ADVANCE);
    ratioLine(`ratio mixed     = advance ${MIXED_APPS} / write floor  `, adv.ratioMixed, TARGET_ADVANCE);
    console.log(
      `alb growth      = ratio at ${ALB_APPS} / ratio at ${ALB_APPS / 2} = ${fmtRatio(adv.growthAlb)}  (1.00 = linear in apps)`,
    );
    console.log(
      `in CPU time     = alb ${fmtRatio(adv.cpuRatioAlb)}, mixed ${fmtRatio(adv.cpuRatioMixed)} (user + system of this process, medians)`,
    );
  }
  if (cold?.kustomize)
    console.log(
      `kustomize       = ${fmt(cold.kustomize.median)} ms median; rollgen cold render is ${fmtRatio(cold.one.median / cold.kustomize.median)}x that`,
    );
  if (many) console.log(`(generated the ${APPS}-app repo in ${fmt(many.genMs)} ms, not timed)`);
  const gh = ONLY.has('github') ? await githubBench(console.log) : undefined;
  const sh = ONLY.has('shards') ? await shardsBench(console.log) : undefined;
  const fleet = ONLY.has('fleet') ? await fleetBench(console.log) : undefined;
  console.log('');
  const round = (n) => (n === null || n === undefined ? null : Math.round(n * 100) / 100);
  console.log(
    JSON.stringify({
      render_one_ms: round(cold?.one.median),
      node_floor_ms: round(cold?.floor.median),
      ratio_one: round(ratioOne),
      yaml_floor_ms: round(cold?.yaml.median),
      ratio_yaml_floor: round(cold ? cold.yaml.median / cold.floor.median : null),
      render_one_in_n_ms: round(inRepo?.rows[0].s.median),
      render_alone_ms: round(inRepo?.rows[1].s.median),
      ratio_one_in_n: round(inRepo?.ratio),
      kustomize_ms: round(cold?.kustomize?.median),
      render_1000_ms: round(many?.render.median),
      parse_floor_1000_ms: round(many?.parse.median),
      ratio_1000: round(ratio1000),
      advance_alb_ms: round(adv?.alb.advance.median),
      write_floor_alb_ms: round(adv?.alb.floor.median),
      ratio_alb: round(adv?.ratioAlb),
      advance_mixed_ms: round(adv?.mixed.advance.median),
      write_floor_mixed_ms: round(adv?.mixed.floor.median),
      ratio_mixed: round(adv?.ratioMixed),
      alb_growth: round(adv?.growthAlb),
      cpu_ratio_alb: round(adv?.cpuRatioAlb),
      cpu_ratio_mixed: round(adv?.cpuRatioMixed),
      render_one_p90_ms: round(cold?.one.p90),
      node_floor_p90_ms: round(cold?.floor.p90),
      render_1000_first_ms: round(many?.renderFirst),
      github_requests_per_new_pr: round(gh?.git20.perPr.requests),
      github_writes_per_new_pr: round(gh?.git20.perPr.writes),
      github_pushes_per_run: gh?.git20.first.pushes,
      github_s_per_new_pr: round(gh ? gh.git20.perPr.ms / 1000 : null),
      github_rest_requests_per_new_pr: round(gh?.rest20.perPr.requests),
      github_rest_s_per_new_pr: round(gh ? gh.rest20.perPr.ms / 1000 : null),
      github_300_requests_per_new_pr: round(gh?.git300.perPr.requests),
      github_300_s_per_new_pr: round(gh ? gh.git300.perPr.ms / 1000 : null),
      github_rerun_requests: gh?.git20.rerun.requests,
      github_idle_1000_requests: gh?.idle1000.run.requests,
      github_idle_10000_requests: gh?.idle10000?.run.requests ?? null,
      shards_same_prs: sh?.together.same ?? null,
      shards_one_run_s: round(sh ? sh.together.single.ms / 1000 : null),
      shards_wall_s: round(sh ? sh.together.wall / 1000 : null),
      shards_idle_one_run_s: round(sh ? sh.idle.one.ms / 1000 : null),
      shards_idle_shard_warm_s: round(sh ? sh.idle.shardWarm.ms / 1000 : null),
      shards_idle_shard_restored_s: round(sh ? sh.idle.shardRestored.ms / 1000 : null),
      shards_idle_shard_cold_s: round(sh ? sh.idle.shardCold.ms / 1000 : null),
      alb_250_alone_ms: round(sh?.alb.alone),
      alb_250_warm_ms: round(sh?.alb.warm),
      alb_250_restored_ms: round(sh?.alb.restored),
      alb_250_cold_ms: round(sh?.alb.cold),
      idle_10000_requests: sh?.large?.one.requests ?? null,
      idle_10000_s: round(sh?.large ? sh.large.one.ms / 1000 : null),
      idle_10000_shard_s: round(sh?.large ? sh.large.shardWarm.ms / 1000 : null),
      fleet_targets: fleet?.targets ?? null,
      fleet_prs_opened: fleet?.prsOpened ?? null,
      fleet_requests_per_run_max: fleet?.requestsPerRunMax ?? null,
      fleet_requests_per_run_mean: round(fleet?.requestsPerRunMean),
      runs: RUNS,
      runs_1000: RUNS_1000,
      runs_advance: RUNS_ADVANCE,
      only: process.env.BENCH_ONLY || null,
      load_average: loadAverage(),
      node: process.version,
    }),
  );
}

function loadAverage() {
  return fs.existsSync('/proc/loadavg') ? fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0] : null;
}

function newestMtime(...dirs) {
  let newest = 0;
  const walk = (d) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, fs.statSync(p).mtimeMs);
    }
  };
  dirs.forEach(walk);
  return newest;
}

mainBench()
  .catch((e) => {
    console.error(`bench: ${e.stack ?? e}`);
    process.exitCode = 1;
  })
  .finally(emptyTrash);
