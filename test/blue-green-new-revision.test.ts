import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { rollgenIn, useAppDir } from './helpers/rollout-dir';

/**
 * Argo blue-green when a newer revision arrives mid-rollout, driven through the CLI as a user does.
 * Argo (rollout/bluegreen.go, service.go, sync.go shouldFullPromote): the preview Service follows the
 * newest ReplicaSet at once; the active Service keeps what it selects; once the switch landed the
 * switched revision is stable, so the newer one is previewed against it, never against the old one.
 * Versions: A (agnhost 2.53, the example), B (2.54), C (2.55). Service selection from `simulate`.
 */
const EXAMPLE = path.join(__dirname, '..', 'examples', 'argo-blue-green', 'web');
const app = useAppDir('rollgen-bg-newrev-', EXAMPLE);
const A = 'agnhost:2.53';
const B = 'agnhost:2.54';
const C = 'agnhost:2.55';

const run = (...args: string[]) => rollgenIn(app.dir, [...args, 'src', 'out']);

/** Each Deployment of the output: its image tag and replicas, e.g. `web: agnhost:2.54 x3`. */
function deployments(): string[] {
  return app
    .files()
    .filter((f) => f.startsWith('deployment-'))
    .map((f) => {
      const d = parseAllDocuments(fs.readFileSync(app.out(f), 'utf8'))[0].toJS();
      const image = String(d.spec.template.spec.containers[0].image).replace(/.*\//, '');
      return `${d.metadata.name}: ${image} x${d.spec.replicas}`;
    });
}

/** The Deployment each Service selects now (active, preview), from `simulate --json`. */
async function selection(): Promise<Record<string, string>> {
  const sim = JSON.parse(await run('simulate', '--json'));
  return Object.fromEntries(sim.services.map((s: { role: string; deployment: string }) => [s.role, s.deployment]));
}

/** A deployed, then B at the given state: `preview` (paused before the switch), `switch`, `promoting`. */
async function bAt(state: 'preview' | 'switch' | 'promoting'): Promise<void> {
  await run('advance');
  await run('advance');
  app.setImage('2.54');
  const moves = { preview: 1, switch: 2, promoting: 3 }[state];
  for (let i = 0; i < moves; i++) await run('advance');
  app.setImage('2.55');
}

test('(a) C arrives while B waits in preview: the preview Service selects C, the active one keeps A, B goes', async () => {
  await bAt('preview');
  expect(await run('advance')).toContain('restart with new revision (preview)');
  expect(deployments()).toEqual([`web-canary: ${C} x1`, `web: ${A} x3`]);
  expect(await selection()).toEqual({ active: 'web', preview: 'web-canary' });
  expect(app.status()).toMatchObject({ phase: 'Progressing', step: 1 });
});

test('(b) C arrives after the switch: B, which the active Service serves, is promoted, then C is previewed against B', async () => {
  await bAt('switch');
  expect(await selection()).toEqual({ active: 'web-canary', preview: 'web-canary' });
  const status = JSON.parse(await run('status', '--json'));
  expect(status.rollouts[0].message).toContain('the active Service serves revision');
  // The switch's own gate (scaleDownDelaySeconds: 60, as Argo keeps the old pods that long) still holds.
  expect(status.rollouts[0].gate).toMatchObject({ before: 'promote', kind: 'timed', seconds: 60 });

  expect(await run('advance')).toContain('promote before revision');
  // The old version's pods are replaced by B's; every user request still reaches B.
  expect(deployments()).toEqual([`web-canary: ${B} x3`, `web: ${B} x3`]);
  expect(await selection()).toEqual({ active: 'web-canary', preview: 'web-canary' });

  expect(await run('advance')).toContain('clean up');
  expect(deployments()).toEqual([`web: ${B} x3`]);
  expect(await selection()).toEqual({ active: 'web', preview: 'web' });

  expect(await run('advance')).toContain('start (preview)');
  expect(deployments()).toEqual([`web-canary: ${C} x1`, `web: ${B} x3`]);
  expect(await selection()).toEqual({ active: 'web', preview: 'web-canary' });

  // Aborting C sends the active Service to B, the version it served, never back to A.
  await run('abort');
  expect(deployments()).toEqual([`web-canary: ${C} x1`, `web: ${B} x3`]);
  expect(await selection()).toEqual({ active: 'web', preview: 'web' });
});

test('(b) promote after the switch with C in the source promotes B (the gate skipped), not C', async () => {
  await bAt('switch');
  expect(await run('promote')).toContain('promote (scale down old)');
  expect(deployments()).toEqual([`web-canary: ${B} x3`, `web: ${B} x3`]);
  expect(app.status()).toMatchObject({ phase: 'Promoting', canaryRevision: expect.any(String) });
});

test('(c) C arrives once the old pods are scaled down: the clean-up finishes B, then C is previewed against B', async () => {
  await bAt('promoting');
  expect(deployments()).toEqual([`web-canary: ${B} x3`, `web: ${B} x3`]);
  const status = JSON.parse(await run('status', '--json'));
  expect(status.rollouts[0].message).toContain("clean-up follows, then the source's new revision");

  expect(await run('advance')).toContain('clean up; revision');
  expect(deployments()).toEqual([`web: ${B} x3`]);
  expect(app.status()).toMatchObject({ phase: 'Healthy' });

  await run('advance');
  expect(deployments()).toEqual([`web-canary: ${C} x1`, `web: ${B} x3`]);
  expect(await selection()).toEqual({ active: 'web', preview: 'web-canary' });
});
