/** examples/github/rollgen.yml is the workflow the README tells users to copy: it must fit action.yml. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

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
