import * as fs from 'fs';
import * as path from 'path';
import { runCli } from './helpers/cli';
import { parseAllDocuments } from 'yaml';
import { hasKubectl } from './helpers/schema';
import { rollgenClean, useAppDir, validateOutput } from './helpers/rollout-dir';

/**
 * examples/argo-blue-green through the CLI: first deploy, preview, switch, scale down old and
 * clean-up, then a second revision aborted after its switch (the preview removed by a later commit). At every state the output builds with
 * kustomize and validates against the published schemas, and the Services select what the state
 * says: the active Service the old pods until the switch, the new ones after it.
 */
const app = useAppDir('rollgen-blue-green-', path.join(__dirname, '..', 'examples', 'argo-blue-green', 'web'));

if (!hasKubectl()) test.skip('SKIPPED: kubectl is not installed (kustomize build of the output)', () => {});

/** Track each Service selects, by Service name, as the built output says. */
function selectors(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of app.files().filter((f) => f.startsWith('service-'))) {
    for (const doc of parseAllDocuments(app.read(file))) {
      const svc = doc.toJS() as { metadata: { name: string }; spec: { selector: Record<string, string> } };
      out[svc.metadata.name] = svc.spec.selector['rollgen.dev/track'];
    }
  }
  return out;
}

/** One `advance`: its line, the deployment files, the Service selectors; the output validates. */
async function advance(args: readonly string[] = ['advance', 'src', 'out']) {
  const line = (await rollgenClean(app.dir, args)).split('\n')[0];
  if (hasKubectl()) expect(validateOutput(app.dir)).toEqual(expect.arrayContaining(['Service/web', 'Deployment/web']));
  return { line, deployments: app.files().filter((f) => f.startsWith('deployment-')), selectors: selectors() };
}

test('a whole blue-green rollout, then an abort after the switch sends the active Service back', async () => {
  await advance();
  expect((await advance()).selectors).toEqual({ web: 'stable', 'web-preview': 'stable' });
  app.setImage('2.54');
  const states = [await advance(), await advance(), await advance(), await advance()];
  expect(states).toEqual([
    {
      line: 'src/web: start (preview) -> step 1 of 2 (preview)',
      deployments: ['deployment-web-canary.yaml', 'deployment-web.yaml'],
      selectors: { web: 'stable', 'web-preview': 'canary' },
    },
    {
      line: 'src/web: step 1 of 2 (preview) -> step 2 of 2 (switch)',
      deployments: ['deployment-web-canary.yaml', 'deployment-web.yaml'],
      selectors: { web: 'canary', 'web-preview': 'canary' },
    },
    {
      line: 'src/web: promote (scale down old) -> promoting (stable gets the new version; traffic as in step 2)',
      deployments: ['deployment-web-canary.yaml', 'deployment-web.yaml'],
      selectors: { web: 'canary', 'web-preview': 'canary' },
    },
    {
      line: 'src/web: clean up -> stable only',
      deployments: ['deployment-web.yaml'],
      selectors: { web: 'stable', 'web-preview': 'stable' },
    },
  ]);
  expect(app.read('deployment-web.yaml')).toContain('agnhost:2.54');

  app.setImage('2.55');
  await advance();
  expect((await advance()).selectors).toEqual({ web: 'canary', 'web-preview': 'canary' });
  // Argo keeps the preview pods abortScaleDownDelaySeconds (30 s by default) after an abort: the Services
  // move back first, and the next advance removes the preview Deployment.
  const aborted = await advance(['abort', 'src', 'out']);
  expect(aborted).toMatchObject({
    deployments: ['deployment-web-canary.yaml', 'deployment-web.yaml'],
    selectors: { web: 'stable', 'web-preview': 'stable' },
  });
  expect(await advance()).toMatchObject({
    line: 'src/web: remove canary workloads -> aborted (all traffic to stable)',
    deployments: ['deployment-web.yaml'],
    selectors: { web: 'stable', 'web-preview': 'stable' },
  });
  expect(app.read('deployment-web.yaml')).toContain('agnhost:2.54');
});

test('a lost status file at each blue-green state is rebuilt from the rendered objects: the next advance writes the same', async () => {
  const objectFiles = (out: string) =>
    fs
      .readdirSync(path.join(app.dir, out))
      .filter((f) => f.endsWith('.yaml') && f !== 'rollgen-status.yaml')
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(app.dir, out, f), 'utf8')]);
  const advanceInProcess = (out: string) => runCli(['advance', 'src', out], app.dir);
  await advanceInProcess('out');
  await advanceInProcess('out');
  app.setImage('2.54');
  await advanceInProcess('out');
  // preview, switch, scale down old: each time the copy without its status file must take the same next step.
  for (let state = 0; state < 3; state++) {
    fs.rmSync(path.join(app.dir, 'lost'), { recursive: true, force: true });
    fs.cpSync(app.out(), path.join(app.dir, 'lost'), { recursive: true });
    fs.rmSync(path.join(app.dir, 'lost', 'rollgen-status.yaml'));
    expect((await advanceInProcess('out')).code).toBe(0);
    const rebuilt = await advanceInProcess('lost');
    expect(rebuilt.stderr).toContain('state rebuilt from the rendered objects');
    expect(objectFiles('lost')).toEqual(objectFiles('out'));
  }
});
