import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { rollgenClean, useAppDir, validateOutput } from './helpers/rollout-dir';

/** A whole aws-alb rollout through `rollgen advance`, each output built by kustomize and validated against the Kubernetes schemas. */
const SOURCE = path.join(__dirname, 'golden', 'aws-alb', 'header-routes', 'source');
const P = 'alb.ingress.kubernetes.io';

const app = useAppDir('rollgen-alb-', SOURCE);
const { read, status } = app;
const ingress = () => parse(read('ingress-web.yaml'));
const annotations = (): Record<string, string> => ingress().metadata.annotations;
const weights = () =>
  JSON.parse(annotations()[`${P}/actions.web`]).ForwardConfig.TargetGroups.map(
    (g: { ServiceName: string; Weight: number }) => `${g.ServiceName}=${g.Weight}`,
  );
const backends = () =>
  ingress().spec.rules[0].http.paths.map((p: { backend: { service: { name: string } } }) => p.backend.service.name);
const routeKeys = () =>
  Object.keys(annotations())
    .filter((k) => /\/(actions|conditions)\.(qa-team|beta-users)$/.test(k))
    .sort();

async function advance(): Promise<string> {
  const stdout = await rollgenClean(app.dir, ['advance', 'src', 'out']);
  const checked = validateOutput(app.dir);
  if (checked) expect(checked).toContain('Ingress/web');
  return stdout;
}

test('first deploy, every step, promote and clean-up: weights end at 0/100 and header routes are removed', async () => {
  await advance();
  await advance();
  expect(await advance()).toMatch(/nothing to advance/);
  expect(weights()).toEqual(['web-canary=0', 'web=100']);
  expect(routeKeys()).toEqual([]);

  app.setImage('2.54');
  const seen: string[] = [];
  for (let step = 1; step <= 6; step++) {
    await advance();
    expect(status()).toMatchObject({ phase: 'Progressing', step });
    seen.push(`${step}: ${weights().join(' ')} | ${backends().join(',')}`);
  }
  expect(seen).toEqual([
    '1: web-canary=0 web=100 | static,web',
    '2: web-canary=0 web=100 | static,beta-users,web',
    '3: web-canary=0 web=100 | static,qa-team,beta-users,web',
    '4: web-canary=30 web=70 | static,qa-team,beta-users,web',
    '5: web-canary=30 web=70 | static,qa-team,web',
    '6: web-canary=60 web=40 | static,qa-team,web',
  ]);
  expect(annotations()[`${P}/scheme`]).toBe('internet-facing');

  await advance();
  expect(status().phase).toBe('Promoting');
  expect(weights()).toEqual(['web-canary=60', 'web=40']);
  expect(parse(read('deployment-web.yaml')).spec.template.spec.containers[0].image).toMatch(/2\.54$/);

  await advance();
  expect(status()).toMatchObject({ phase: 'Healthy', step: 0 });
  expect(weights()).toEqual(['web-canary=0', 'web=100']);
  expect(routeKeys()).toEqual([]);
  expect(backends()).toEqual(['static', 'web']);
  expect(JSON.parse(annotations()['rollouts.argoproj.io/managed-alb-annotations'])).toEqual({
    web: [`${P}/actions.web`],
  });
  // Argo keeps the canary pods 30 s after the routes leave them (scaleDownDelaySeconds' default): a later commit removes them.
  expect(fs.readdirSync(app.out())).toContain('deployment-web-canary.yaml');
  expect(await advance()).toMatch(/remove canary workloads -> stable only/);
  expect(fs.readdirSync(app.out())).not.toContain('deployment-web-canary.yaml');
  expect(await advance()).toMatch(/nothing to advance/);
});
