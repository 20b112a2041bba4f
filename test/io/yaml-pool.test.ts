import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ParseJob, yamlPool } from '../../src/io/yaml-pool';
import { ParseResult, parseYamlStream } from '../../src/yaml/parse';
import { serializeValue } from '../../src/yaml/serialize';

/**
 * The YAML worker as the CLI runs it (dist/yaml-worker.js, built by `npm test` before jest): what
 * it parses and serializes must be what this thread would make, value for value and byte for byte,
 * with every position still found. The thread's first group waits for the worker's first result, so
 * the worker surely takes part.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const WORKER = path.join(ROOT, 'dist', 'yaml-worker.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Without a second core no worker is started: the tests that need one say so and are skipped. */
const twoCores = os.availableParallelism() >= 2;
const shared = twoCores ? test : test.skip;
if (!twoCores) console.warn('yaml-pool: one core here, so the worker tests are skipped');

/** For a `use` callback: the first group waits until the worker has sent a result, so it surely takes part. */
async function untilShared(pool: { sharedGroups(): number }, i: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (i === 0 && pool.sharedGroups() === 0 && Date.now() < deadline) await sleep(10);
}

beforeAll(() => {
  if (!fs.existsSync(WORKER)) throw new Error(`${WORKER} is missing: run \`npm run build\` (npm test does) first`);
});

/** Every YAML file of examples/ and the golden inputs: Kruise, Argo, errors, anchors, block text. */
function corpus(): ParseJob[][] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e.name)) files.push(p);
    }
  };
  walk(path.join(ROOT, 'examples'));
  walk(path.join(ROOT, 'test', 'golden'));
  const jobs = files.sort().map((f) => ({ path: path.relative(ROOT, f), text: fs.readFileSync(f, 'utf8') }));
  const broken = [
    { path: 'broken/tabs.yaml', text: 'a:\n\tb: 1\n' },
    { path: 'broken/dup.yaml', text: 'kind: A\nkind: B\n' },
    { path: 'broken/alias.yaml', text: 'a: &x [1]\nb: *y\n' },
  ];
  const all = [...jobs, ...broken];
  // Groups of three files, as an app's sources.
  return Array.from({ length: Math.ceil(all.length / 3) }, (_, i) => all.slice(3 * i, 3 * i + 3));
}

/** What a caller can read of a parse: values, document origins, problems, and positions inside documents. */
function seen(results: readonly ParseResult[]) {
  return results.map((r) => ({
    diagnostics: r.diagnostics,
    documents: r.documents.map((d) => {
      const at = (p: (string | number)[]) => ({ ...d.locate(p) });
      return {
        index: d.index,
        value: d.value,
        origin: { ...d.origin },
        meta: at(['metadata', 'name']),
        deep: at(['spec', 'strategy', 'canary', 'steps', 1]),
      };
    }),
  }));
}

shared(
  "GIVEN the repo's YAML WHEN parsed with the worker THEN values, problems and every position are the same as parsed here",
  async () => {
    const groups = corpus();
    expect(groups.length).toBeGreaterThan(20);
    const pool = yamlPool(groups.length, { workerFile: WORKER, minGroups: 2, minBytes: 0 });
    const results = await pool.parseGroups(groups, async (i, r) => {
      await untilShared(pool, i);
      return seen(r);
    });
    expect(pool.sharedGroups()).toBeGreaterThan(0);
    const here = groups.map((g) => seen(g.map((j) => parseYamlStream(j.path, j.text))));
    expect(results).toEqual(here);
  },
);

shared("GIVEN many objects WHEN serialized with the worker THEN the bytes are serializeValue's", async () => {
  // A third of the corpus: its values are of the same few shapes as the rest.
  const groups = corpus()
    .filter((_g, i) => i % 3 === 0)
    .map((g) => g.flatMap((j) => parseYamlStream(j.path, j.text).documents.map((d) => d.value)));
  const pool = yamlPool(groups.length, { workerFile: WORKER, minGroups: 2, minValues: 0 });
  const texts = await pool.serializeGroups(groups, async (i, t) => {
    await untilShared(pool, i);
    return t;
  });
  expect(pool.sharedGroups()).toBeGreaterThan(0);
  expect(texts).toEqual(groups.map((g) => g.map((v) => serializeValue(v))));
});

shared(
  "GIVEN files nested too deep WHEN the worker parses them THEN the messages are the main thread's (parsed again here)",
  async () => {
    // How deep the parser gets before its recursion stops depends on the thread's stack.
    const deep = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}\n`;
    const groups = Array.from({ length: 8 }, (_, i) => [
      { path: `deep/${i}.yaml`, text: `kind: A\nv: ${deep(120 + 50 * i)}` },
      { path: `deep/${i}b.yaml`, text: `kind: B\nv: ${deep(101)}` },
    ]);
    const pool = yamlPool(groups.length, { workerFile: WORKER, minGroups: 2, minBytes: 0 });
    const results = await pool.parseGroups(groups, async (i, r) => {
      await untilShared(pool, i);
      return seen(r);
    });
    expect(pool.sharedGroups()).toBeGreaterThan(0);
    expect(results).toEqual(groups.map((g) => seen(g.map((j) => parseYamlStream(j.path, j.text)))));
    expect(results[7][0].diagnostics.length).toBeGreaterThan(0);
  },
);

/**
 * A pool over ten groups with a broken worker script, made by `source(marker)`: the script writes
 * `marker` when it has done its damage, and this thread's first group waits for that, so the case
 * the test names surely happened. Every result must still be this thread's own.
 */
async function withBrokenWorker(source: (marker: string) => string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-yaml-pool-'));
  const script = path.join(dir, 'worker.js');
  const marker = path.join(dir, 'broke');
  fs.writeFileSync(script, source(marker));
  try {
    const groups = corpus().slice(0, 10);
    const pool = yamlPool(groups.length, { workerFile: script, minGroups: 2, minBytes: 0 });
    const results = await pool.parseGroups(groups, async (i, r) => {
      const deadline = Date.now() + 30_000;
      while (i === 0 && !fs.existsSync(marker) && Date.now() < deadline) await sleep(10);
      return seen(r);
    });
    expect(fs.existsSync(marker)).toBe(true);
    expect(pool.sharedGroups()).toBe(0);
    expect(results).toEqual(groups.map((g) => seen(g.map((j) => parseYamlStream(j.path, j.text)))));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

shared(
  'GIVEN a worker that dies in the middle of a task WHEN a pool uses it THEN this thread does its groups; a later pool works',
  async () => {
    // Takes the last group (as the real worker does first), then exits without a result.
    await withBrokenWorker(
      (marker) =>
        `require('worker_threads').parentPort.on('message', (t) => { Atomics.store(t.taken, t.groups.length - 1, 2); require('fs').writeFileSync(${JSON.stringify(marker)}, ''); process.exit(3); });\n`,
    );
    const again = corpus().slice(0, 30);
    const pool = yamlPool(again.length, { workerFile: WORKER, minGroups: 2, minBytes: 0 });
    await pool.parseGroups(again, (i) => untilShared(pool, i));
    expect(pool.sharedGroups()).toBeGreaterThan(0);
  },
);

shared('GIVEN a use callback that throws WHEN the next call comes THEN the worker is free for it', async () => {
  const groups = corpus().slice(0, 30);
  const first = yamlPool(groups.length, { workerFile: WORKER, minGroups: 2, minBytes: 0 });
  const failed = first.parseGroups(groups, async (i) => {
    await untilShared(first, i);
    throw new Error('bad app');
  });
  await expect(failed).rejects.toThrow('bad app');
  const second = yamlPool(groups.length, { workerFile: WORKER, minGroups: 2, minBytes: 0 });
  const texts = await second.parseGroups(groups, async (i, r) => {
    await untilShared(second, i);
    return seen(r);
  });
  expect(second.sharedGroups()).toBeGreaterThan(0);
  expect(texts).toEqual(groups.map((g) => seen(g.map((j) => parseYamlStream(j.path, j.text)))));
});

test('GIVEN a worker that fails at start WHEN a pool uses it THEN this thread does every group, with the same results', async () => {
  await withBrokenWorker(
    (marker) => `require('fs').writeFileSync(${JSON.stringify(marker)}, ''); throw new Error('no worker today');\n`,
  );
});

test('GIVEN few groups or little YAML WHEN a pool is asked THEN no worker is used', async () => {
  const groups = corpus().slice(0, 4);
  const few = yamlPool(groups.length, { workerFile: WORKER });
  await few.parseGroups(groups, (_i, r) => r);
  expect(few.sharedGroups()).toBe(0);
  const small = yamlPool(100, { workerFile: WORKER }); // many expected, but these are a few KB
  await small.parseGroups(groups, async (i, r) => {
    if (i === 0) await sleep(100);
    return r;
  });
  expect(small.sharedGroups()).toBe(0);
});
