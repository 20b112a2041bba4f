import Ajv, { ValidateFunction } from 'ajv';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { OUTPUT_KINDS, OutputKind } from '../src/app/output-format';
import { runCli } from './helpers/cli';
import { FlowWorld } from './helpers/flow-world';
import { bumpImage, makeRepo } from './helpers/git-repo';
import { useAppDir } from './helpers/rollout-dir';

/**
 * Every command's real --json output validates against its committed schema (schemas/output/),
 * -o yaml parses to the same data, and errors under --json are a document on stdout with the
 * same exit status.
 */
const SCHEMAS = path.join(__dirname, '..', 'schemas', 'output');
const ajv = new Ajv({
  allErrors: true,
  strict: true,
  formats: { 'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/ },
});
const validators = new Map<string, ValidateFunction>(
  fs
    .readdirSync(SCHEMAS)
    .map((f) => [f.replace(/\.json$/, ''), ajv.compile(JSON.parse(fs.readFileSync(path.join(SCHEMAS, f), 'utf8')))]),
);

function expectValid(text: string, kind: OutputKind): Record<string, unknown> {
  const doc = JSON.parse(text) as Record<string, unknown>;
  expect(doc).toMatchObject({ apiVersion: 'rollgen.dev/v1alpha1', kind });
  const validate = validators.get(OUTPUT_KINDS[kind])!;
  // Nothing unknown is spelled "-": it is null, so a script never mistakes a placeholder for a value.
  expect(placeholders(doc)).toEqual([]);
  if (!validate(doc)) throw new Error(`${kind} does not match its schema: ${ajv.errorsText(validate.errors)}\n${text}`);
  return doc;
}

/** Runs `args` with --json and with -o yaml: both valid, the same data, the same exit status. */
async function both(args: readonly string[], dir: string, kind: OutputKind, code = 0, edges = {}) {
  const json = await runCli([...args, '--json'], dir, '', edges);
  expect(json.code).toBe(code);
  return expectValid(json.stdout, kind);
}

async function yamlMatches(args: readonly string[], dir: string, json: unknown): Promise<void> {
  const yaml = await runCli([...args, '-o', 'yaml'], dir);
  expect(parse(yaml.stdout)).toEqual(json);
}

function placeholders(value: unknown, at = ''): string[] {
  if (value === '-') return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => placeholders(v, `${at}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => placeholders(v, `${at}.${k}`));
  return [];
}

test('the schemas are strict: a missing field or a field they do not describe is refused', () => {
  const validate = validators.get('status')!;
  expect(validate({ apiVersion: 'rollgen.dev/v1alpha1', kind: 'Status', rollouts: [], disabled: [] })).toBe(true);
  expect(validate({ apiVersion: 'rollgen.dev/v1alpha1', kind: 'Status', rollouts: [] })).toBe(false);
  expect(validate({ apiVersion: 'rollgen.dev/v1alpha1', kind: 'Status', rollouts: [], disabled: [], extra: 1 })).toBe(
    false,
  );
  expect(validate({ apiVersion: 'rollgen.dev/v1', kind: 'Status', rollouts: [], disabled: [] })).toBe(false);
  expect(placeholders({ a: [{ b: '-' }] })).toEqual(['.a[0].b']);
});

test('every kind has a schema and every schema a kind', () => {
  expect([...validators.keys()].sort()).toEqual(Object.values(OUTPUT_KINDS).sort());
});

describe('a local app through its lifecycle', () => {
  const app = useAppDir('rollgen-json-', path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver'));

  test('plan, validate, simulate, status and analyze: valid, and YAML is the same data', async () => {
    for (const [args, kind] of [
      [['plan', 'src'], 'Plan'],
      [['validate', 'src'], 'Validation'],
      [['simulate', 'src', '--step', '2', '--header', 'x-canary=on'], 'Simulation'],
      [['status', 'src', 'out'], 'Status'],
      [['analyze', 'src', '--step', '1'], 'AnalysisReport'],
    ] as const) {
      const doc = await both(args, app.dir, kind);
      await yamlMatches(args, app.dir, doc);
    }
  });

  test('advance, promote, abort and retry report each move with its states before and after', async () => {
    let doc = await both(['advance', 'src', 'out'], app.dir, 'ChangeReport');
    expect(doc.moves).toEqual([
      expect.objectContaining({
        rollout: 'rollouts-demo',
        action: 'first deploy',
        from: null,
        to: expect.objectContaining({ phase: 'Adopting' }),
      }),
    ]);
    await both(['advance', 'src', 'out'], app.dir, 'ChangeReport');
    app.setImage('2.54');
    await both(['advance', 'src', 'out'], app.dir, 'ChangeReport');
    doc = await both(['promote', 'src', 'out'], app.dir, 'ChangeReport');
    expect(doc.moves).toEqual([
      expect.objectContaining({ from: expect.objectContaining({ step: 1 }), to: expect.objectContaining({ step: 2 }) }),
    ]);
    expect(doc.messages).toEqual([
      'src/rollouts-demo: step 1 of 4 -> step 2 of 4 (promoted, gate skipped)',
      'wrote out',
    ]);
    const status = await both(['status', 'src', 'out'], app.dir, 'Status');
    expect(status.rollouts).toEqual([
      expect.objectContaining({
        phase: 'Paused',
        step: 2,
        traffic: expect.objectContaining({ weight: 40, weightTotal: 100, byPods: false, matches: 'x-canary=on' }),
      }),
    ]);
    await both(['abort', 'src', 'out'], app.dir, 'ChangeReport');
    doc = await both(['abort', 'src', 'out'], app.dir, 'ChangeReport');
    expect(doc).toMatchObject({ command: 'abort', mode: 'write', moves: [] });
    await yamlMatches(['abort', 'src', 'out'], app.dir, doc); // nothing to abort: the same report again
    expect(doc.messages).toEqual([expect.stringMatching(/^nothing to abort: src\/rollouts-demo is aborted/)]);
    doc = await both(['retry', 'src', 'out'], app.dir, 'ChangeReport');
    expect(doc.moves).toEqual([expect.objectContaining({ action: 'retry' })]);
  });

  test('errors are a document on stdout with the exit status and each diagnostic at file:line:col', async () => {
    fs.writeFileSync(
      path.join(app.dir, 'src', 'rollout.yaml'),
      'apiVersion: rollouts.kruise.io/v1alpha1\nkind: Rollout\nmetadata: {name: x}\nspec: {bogus: 1}\n',
    );
    const r = await runCli(['plan', 'src', '--json'], app.dir);
    expect(r.code).toBe(2);
    const doc = expectValid(r.stdout, 'Error');
    expect(doc.error).toMatchObject({ type: 'InputError', exitCode: 2 });
    const diagnostics = (doc.error as { diagnostics: { file: string; line: number; col: number }[] }).diagnostics;
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics[0]).toMatchObject({
      file: 'src/rollout.yaml',
      line: expect.any(Number),
      col: expect.any(Number),
    });
    expect(r.stderr).toMatch(/^src\/rollout\.yaml:\d+:\d+: /m);
    const state = await runCli(['status', 'nowhere', '-o', 'yaml'], app.dir);
    expect(state.code).toBe(2);
    expect(parse(state.stdout)).toMatchObject({ kind: 'Error', error: { exitCode: 2 } });
  });

  test('--json and -o yaml together are refused as a document too', async () => {
    const r = await runCli(['plan', 'src', '--json', '-o', 'yaml'], app.dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--json and -o yaml ask for different formats/);
    expect(parse(r.stdout)).toMatchObject({ kind: 'Error' });
  });
});

test('advance --commit --json: one app held by its gate, the other committed: one report with both the moves and the error', async () => {
  const repo = makeRepo(
    ['a', 'b'],
    'apps:\n  - source: apps/*\n    output: deploy/{name}\n',
    new Date('2026-03-01T10:00:00Z'),
  );
  try {
    for (let i = 0; i < 2; i++) expect((await runCli(['advance', '--commit'], repo)).code).toBe(0);
    bumpImage(repo, 'a', '2.54', new Date('2026-03-01T10:01:00Z'));
    expect((await runCli(['advance', 'a', '--commit'], repo)).code).toBe(0);
    bumpImage(repo, 'b', '2.54', new Date('2026-03-01T10:02:00Z'));
    const r = await runCli(['advance', '--commit', '--json'], repo);
    expect(r.code).toBe(1);
    const doc = expectValid(r.stdout, 'ChangeReport');
    expect(doc).toMatchObject({ mode: 'commit', error: { type: 'StateError', exitCode: 1 } });
    expect(doc.moves).toEqual([
      expect.objectContaining({ app: 'b', action: 'start', to: expect.objectContaining({ step: 1 }) }),
    ]);
    expect((doc.error as { message: string }).message).toMatch(/a: step 2 waits for a manual gate/);
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
});

describe('the GitHub flow', () => {
  const CONFIG = 'apps:\n  - source: apps/echo\n    output: deploy/echo\n';
  let w: FlowWorld;
  afterEach(() => fs.rmSync(w.repo, { recursive: true, force: true }));

  test('rollgen pr and abort --pr report the PRs they opened and merged', async () => {
    w = await FlowWorld.echoAtStep(CONFIG, 1);
    const dry = await w.run(['pr', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(expectValid(dry.stdout, 'PullRequestReport')).toMatchObject({ dryRun: true, pullRequests: [] });
    const r = await w.run(['abort', 'echo', '--pr', '--merge', '--json']);
    expect(r.code).toBe(0);
    const doc = expectValid(r.stdout, 'ChangeReport');
    expect(doc).toMatchObject({ command: 'abort', mode: 'pr' });
    expect(doc.pullRequests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ app: 'echo', action: 'opened', step: 'abort' }),
        expect.objectContaining({ action: 'merged' }),
      ]),
    );
    const pr = await w.run(['pr', '-o', 'json']);
    expect(expectValid(pr.stdout, 'PullRequestReport').messages).toEqual(expect.any(Array));
  });
});

test('pr --dry-run --offline --json: the PR of each app as fields (branch, title, labels, body), nulls for an app with none', async () => {
  const repo = makeRepo(
    ['a', 'b'],
    'apps:\n  - source: apps/*\n    output: deploy/{name}\n',
    new Date('2026-03-01T10:00:00Z'),
  );
  try {
    for (let i = 0; i < 2; i++) expect((await runCli(['advance', 'b', '--commit'], repo)).code).toBe(0);
    const doc = await both(['pr', '--dry-run', '--offline'], repo, 'PullRequestReport', 0, { env: {} });
    expect(doc.previews).toEqual([
      expect.objectContaining({ app: 'a', branch: 'rollgen/a/adopt', labels: expect.arrayContaining(['rollgen']) }),
      { app: 'b', branch: null, title: null, labels: [], body: null },
    ]);
    const [a] = doc.previews as { title: string; body: string }[];
    expect(a.title).toMatch(/^rollgen\(a\): adopt/);
    expect(a.body).toContain('### a: adopt');
    expect(doc.messages).toEqual([]);
    bumpImage(repo, 'b', '2.54', new Date('2026-03-01T10:01:00Z'));
    expect((await runCli(['advance', 'b', '--commit'], repo)).code).toBe(0);
    const abort = await both(['abort', 'b', '--pr', '--dry-run', '--offline'], repo, 'ChangeReport', 0, { env: {} });
    expect(abort.previews).toEqual([expect.objectContaining({ app: 'b', branch: 'rollgen/b/abort' })]);
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
  }
});
