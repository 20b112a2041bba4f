#!/usr/bin/env node
// rollgen benchmark: reports only, never fails on a missed target (see bench/README.md).
//
//   npm run bench                 # BENCH_RUNS=15 timed runs per row, after 2 warm-up runs
//   BENCH_RUNS=5 npm run bench    # quicker
//   BENCH_RUNS_1000=3 npm run bench  # fewer repetitions of the 1,000-app loops only
//
// Needs dist/cli.js (`npm run build`). Writes only under bench/.work/ (gitignored).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const YAML = require('yaml');

const WORK = path.join(ROOT, 'bench', '.work');
const EXAMPLE = path.join(ROOT, 'examples', 'kruise-nginx', 'echoserver');
const BIN = path.join(ROOT, 'bin', 'rollgen');
const DIST = path.join(ROOT, 'dist', 'cli.js');
const STEP = '2';
const APPS = 1000;
const WARMUP = 2;
const RUNS = positiveInt('BENCH_RUNS', 15);
const RUNS_1000 = positiveInt('BENCH_RUNS_1000', RUNS);
const TARGET_ONE = 1.6;
const TARGET_1000 = 2.0;

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
function spawnChecked(cmd, args, what) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${what}: exit ${r.status ?? r.signal}\n${r.stderr}`);
  return r;
}

function spawnNonEmpty(cmd, args, what) {
  const r = spawnChecked(cmd, args, what);
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

/**
 * 1,000 copies of the example, each with its own names: every scalar equal to a Deployment,
 * Service, Ingress or Rollout name gets `-NNNN` (so references such as workloadRef, backends,
 * trafficRoutings and the app label stay consistent), and every Ingress host gets it on its first label.
 */
function writeRepo(example) {
  const repo = path.join(WORK, 'repo');
  fs.rmSync(repo, { recursive: true, force: true });
  fs.mkdirSync(repo, { recursive: true });
  const names = new Set();
  const hosts = new Set();
  for (const f of example) {
    for (const doc of YAML.parseAllDocuments(f.text)) {
      const o = doc.toJS();
      if (!o || !['Deployment', 'Service', 'Ingress', 'Rollout'].includes(o.kind)) continue;
      names.add(o.metadata?.name);
      if (o.kind === 'Ingress') {
        for (const r of o.spec?.rules ?? []) if (r.host) hosts.add(r.host);
        for (const t of o.spec?.tls ?? []) for (const h of t.hosts ?? []) hosts.add(h);
      }
    }
  }
  const dirs = [];
  for (let i = 0; i < APPS; i++) {
    const suffix = String(i).padStart(4, '0');
    const dir = path.join(repo, `app-${suffix}`);
    fs.mkdirSync(dir);
    for (const f of example) {
      const docs = YAML.parseAllDocuments(f.text).map((doc) => {
        YAML.visit(doc, {
          Scalar(_key, node) {
            if (typeof node.value !== 'string') return;
            if (names.has(node.value)) node.value = `${node.value}-${suffix}`;
            else if (hosts.has(node.value)) node.value = node.value.replace(/^[^.]+/, (label) => `${label}-${suffix}`);
          },
        });
        return String(doc);
      });
      fs.writeFileSync(path.join(dir, f.name), docs.join(''));
    }
    dirs.push(path.relative(ROOT, dir));
  }
  return dirs;
}

// ---------------------------------------------------------------- in-process loops

function collectingContext() {
  const out = [];
  const err = [];
  return {
    out,
    err,
    ctx: { cwd: ROOT, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), readStdin: async () => [] },
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
  const example = readExample();
  console.log(
    `rollgen bench: node ${process.version}, ${RUNS} runs (${RUNS_1000} for the 1,000-app rows) after ${WARMUP} warm-ups`,
  );
  console.log('');

  const rows = [];

  // 1, 2, 3: cold processes, interleaved. PATH's node for the floor; bin/rollgen through its #!/usr/bin/env node line.
  const renderArgs = ['render', path.relative(ROOT, EXAMPLE), '--step', STEP];
  const kapp = writeKustomizeApp(example);
  const fns = [
    () => spawnNonEmpty(BIN, renderArgs, 'bin/rollgen'),
    () => spawnChecked('node', ['-e', '0'], 'node -e 0'),
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
  const [one, floor, kustomize = null] = measureInterleaved(fns);
  const ratioOne = one.median / floor.median;
  rows.push({ name: `bin/rollgen render echoserver --step ${STEP}`, s: one, note: 'cold process' });
  rows.push({ name: 'node -e 0', s: floor, note: 'cold process floor' });
  if (kustomize) rows.push({ name: 'kubectl kustomize (plain manifests)', s: kustomize, note: kapp.files.join(', ') });
  else rows.push({ name: 'kubectl kustomize (plain manifests)', skipped: kustomizeSkip });

  // 4: 1,000 apps in this one process (generation not timed).
  const tGen = nowMs();
  const dirs = writeRepo(example);
  const genMs = nowMs() - tGen;
  const { main } = require(DIST);
  // First passes count as the first warm-up; render's is reported for information: it is the one a CI job
  // pays (the bundle carries its own copy of yaml, cold here; the floor's yaml is already warm from generation).
  let t0 = nowMs();
  const renderBytes = await renderAll(main, dirs);
  const renderFirst = nowMs() - t0;
  t0 = nowMs();
  const parseBytes = parseFloor(dirs);
  const parseFirst = nowMs() - t0;
  // Then WARMUP more untimed passes each and RUNS_1000 timed ones, alternating so neither gets a warmer heap.
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
  const render1000 = stats(renderSamples);
  const parse1000 = stats(parseSamples);
  const ratio1000 = render1000.median / parse1000.median;
  rows.push({
    name: `render ${APPS} apps, one process`,
    s: render1000,
    note: `main() per app; first pass ${fmt(renderFirst)} ms; ${(renderBytes / 1024).toFixed(0)} KiB out`,
  });
  rows.push({
    name: `parse floor, ${APPS} apps`,
    s: parse1000,
    note: `read + parseAllDocuments + String(doc); first pass ${fmt(parseFirst)} ms; ${(parseBytes / 1024).toFixed(0)} KiB`,
  });

  printTable(rows);
  console.log('');
  console.log(`ratio one   = render / node floor      = ${fmtRatio(ratioOne)}  (${verdict(ratioOne, TARGET_ONE)})`);
  console.log(`ratio 1000  = render 1000 / parse floor = ${fmtRatio(ratio1000)}  (${verdict(ratio1000, TARGET_1000)})`);
  if (kustomize)
    console.log(
      `kustomize   = ${fmt(kustomize.median)} ms median; rollgen cold render is ${fmtRatio(one.median / kustomize.median)}x that`,
    );
  console.log(
    `(generated ${dirs.length} apps under ${path.relative(ROOT, path.join(WORK, 'repo'))} in ${fmt(genMs)} ms, not timed)`,
  );
  console.log('');
  const round = (n) => (n === null || n === undefined ? null : Math.round(n * 100) / 100);
  console.log(
    JSON.stringify({
      render_one_ms: round(one.median),
      node_floor_ms: round(floor.median),
      ratio_one: round(ratioOne),
      kustomize_ms: kustomize ? round(kustomize.median) : null,
      render_1000_ms: round(render1000.median),
      parse_floor_1000_ms: round(parse1000.median),
      ratio_1000: round(ratio1000),
      render_one_p90_ms: round(one.p90),
      node_floor_p90_ms: round(floor.p90),
      kustomize_p90_ms: kustomize ? round(kustomize.p90) : null,
      render_1000_p90_ms: round(render1000.p90),
      parse_floor_1000_p90_ms: round(parse1000.p90),
      render_1000_first_ms: round(renderFirst),
      runs: RUNS,
      runs_1000: RUNS_1000,
      node: process.version,
    }),
  );
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

mainBench().catch((e) => {
  console.error(`bench: ${e.stack ?? e}`);
  process.exit(1);
});
