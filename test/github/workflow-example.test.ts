/** examples/github/rollgen.yml is the workflow the README tells users to copy: it must fit action.yml. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { abortPath } from '../../src/flow/abort-path';

const ROOT = join(__dirname, '..', '..');
const workflow = parse(readFileSync(join(ROOT, 'examples', 'github', 'rollgen.yml'), 'utf8'));
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
const steps: { uses?: string; with?: Record<string, unknown>; id?: string }[] = workflow.jobs.rollgen.steps;

test('the rollgen step passes only inputs action.yml declares, and every dispatch input reaches it', () => {
  const step = steps.find((s) => s.id === 'rollgen')!;
  expect(Object.keys(step.with!).filter((k) => !(k in action.inputs))).toEqual([]);
  const passed = JSON.stringify(step.with);
  for (const name of Object.keys(workflow.on.workflow_dispatch.inputs)) expect(passed).toContain(`inputs.${name}`);
  expect(workflow.on.workflow_dispatch.inputs.command.options).toEqual(['pr', 'abort', 'promote', 'retry']);
});

test('push, schedule and dispatch triggers, one run per repository, the permissions the flow needs, full history', () => {
  expect(Object.keys(workflow.on).sort()).toEqual(['push', 'schedule', 'workflow_dispatch']);
  expect(workflow.concurrency).toEqual({ group: 'rollgen-${{ github.repository }}', 'cancel-in-progress': false });
  expect(workflow.jobs.rollgen.permissions).toMatchObject({
    contents: 'write',
    'pull-requests': 'write',
    checks: 'write', // analysis records live in a check run
    statuses: 'read', // health gates read Argo CD's and Flux's commit statuses
  });
  expect(steps.find((s) => s.uses?.startsWith('actions/checkout'))?.with).toMatchObject({ 'fetch-depth': 0 });
  expect(action.runs).toEqual({ using: 'node24', main: 'action/dist/index.js' });
});

test('the abort path every PR body offers dispatches this workflow with inputs it declares', () => {
  const path = abortPath(
    'web',
    { kind: 'step', step: 1 },
    { serverUrl: 'https://github.com', workflow: 'rollgen.yml' },
  )!;
  // The default pr.workflow is this file's name under .github/workflows.
  expect(path.workflow).toBe('rollgen.yml');
  const inputs = workflow.on.workflow_dispatch.inputs;
  for (const { name, value } of path.inputs) {
    expect(inputs).toHaveProperty(name);
    if (inputs[name].type === 'choice') expect(inputs[name].options).toContain(value);
    if (inputs[name].type === 'boolean') expect(['true', 'false']).toContain(value);
  }
});

test('docs, README and the example workflow reference the Action at the tag of package.json’s version', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const files = ['README.md', 'docs/github-action.md', 'docs/github-flow.md', 'examples/github/rollgen.yml'];
  const refs = files.flatMap((f) =>
    [...readFileSync(join(ROOT, f), 'utf8').matchAll(/uses: [\w.-]+\/rollgen@([\w.-]+)/g)].map((m) => `${f}: ${m[1]}`),
  );
  expect(refs.length).toBeGreaterThan(0);
  expect(refs.filter((r) => !r.endsWith(`: v${version}`))).toEqual([]);
  expect(steps.find((s) => s.id === 'rollgen')!.uses).toBe(`OWNER/rollgen@v${version}`);
});

describe('examples/github/rollgen-shards.yml, the workflow over a matrix of shards', () => {
  const sharded = parse(readFileSync(join(ROOT, 'examples', 'github', 'rollgen-shards.yml'), 'utf8'));
  const job = sharded.jobs.rollgen;
  const stepsOf: { uses?: string; with?: Record<string, string>; id?: string }[] = job.steps;

  test('every shard 1..N of the matrix runs with shard K/N, none cancelling another, one run per shard at a time', () => {
    const shards: number[] = job.strategy.matrix.shard;
    expect(job.strategy['fail-fast']).toBe(false);
    const input = stepsOf.find((s) => s.id === 'rollgen')!.with!;
    expect(Object.keys(input).filter((k) => !(k in action.inputs))).toEqual([]);
    const [, count] = /^\$\{\{ matrix\.shard \}\}\/(\d+)$/.exec(input.shard)!;
    expect(shards).toEqual(Array.from({ length: Number(count) }, (_, i) => i + 1));
    expect(job.concurrency).toEqual({
      group: 'rollgen-${{ github.repository }}-shard-${{ matrix.shard }}',
      'cancel-in-progress': false,
    });
    expect(sharded.concurrency).toBeUndefined();
    expect(job.permissions).toEqual(workflow.jobs.rollgen.permissions);
  });

  test('the app index is restored and saved with actions/cache where ROLLGEN_CACHE_DIR puts it, before rollgen runs', () => {
    const cache = stepsOf.findIndex((s) => s.uses?.startsWith('actions/cache@'));
    expect(cache).toBeGreaterThan(stepsOf.findIndex((s) => s.uses?.startsWith('actions/checkout')));
    expect(cache).toBeLessThan(stepsOf.findIndex((s) => s.id === 'rollgen'));
    expect(stepsOf[cache].with!.path).toBe(job.env.ROLLGEN_CACHE_DIR);
    // A key per run (a cache entry is never overwritten), restoring the newest one saved.
    expect(stepsOf[cache].with!.key).toContain('${{ github.run_id }}');
    expect(stepsOf[cache].with!['restore-keys']).toContain('rollgen-index-');
  });

  test('docs/github-action.md shows the same job as the example', () => {
    const docs = readFileSync(join(ROOT, 'docs', 'github-action.md'), 'utf8');
    const section = docs.slice(docs.indexOf('### Sharding over an Actions matrix'));
    const shown = parse(/```yaml\n([\s\S]*?)```/.exec(section)![1]).jobs.rollgen;
    expect(shown.strategy).toEqual(job.strategy);
    expect(shown.concurrency).toEqual(job.concurrency);
    expect(shown.env).toEqual(job.env);
    expect(shown.steps.map((s: { uses?: string }) => s.uses)).toEqual(stepsOf.map((s) => s.uses));
    expect(shown.steps.find((s: { id?: string }) => s.id === 'rollgen').with.shard).toBe('${{ matrix.shard }}/4');
  });
});
