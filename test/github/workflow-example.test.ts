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
