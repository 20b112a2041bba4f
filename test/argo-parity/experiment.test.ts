import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli';
import { buildOutput, rollgenClean, setImage, useAppDir } from '../helpers/rollout-dir';
import { UNMODELLED_GROUPS, validateAgainstSchemas } from '../helpers/schema';
import { lineOf, podTemplate, service, tempSources } from './sources';

/**
 * Argo's experiment step (issue 28 item 6), as Argo's docs/features/experiment.md describes it,
 * written in our own words: temporary workloads of the stable and canary pod templates committed
 * with the step, their analyses gating it, removed by the next commit.
 */
const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'argo-experiment', 'guestbook');
const app = useAppDir('rollgen-experiment-', EXAMPLE);
const sources = tempSources('rollgen-experiment-src-');

interface Built {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    replicas?: number;
    selector?: Record<string, unknown> & { matchLabels?: Record<string, string> };
    template?: { metadata: { labels: Record<string, string> }; spec: { containers: { image: string }[] } };
    ports?: { port: number }[];
  };
}

async function advanceAndBuild(): Promise<Built[]> {
  await rollgenClean(app.dir, ['advance', 'src', 'out']);
  const built = buildOutput(app.dir);
  if (built === undefined) return [];
  validateAgainstSchemas(built);
  return parseAllDocuments(built).map((d) => d.toJS() as Built);
}

const experimental = (objects: Built[]) =>
  objects.filter((o) => o.metadata.labels?.['rollgen.dev/experiment'] !== undefined);

test('the experiment runs with the step before it: a workload per template, Services where asked, gone at the next step', async () => {
  const plan = await runCli(['plan', 'src'], app.dir);
  expect(plan.stdout).toMatch(/^1 +1 +4 +20% +- +- +after 600s \+ analysis compare-latency$/m);
  await advanceAndBuild();
  await advanceAndBuild();
  const file = path.join(app.dir, 'src', 'deployment.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('podinfo:6.7.0', 'podinfo:6.7.1'));
  const step1 = await advanceAndBuild();
  expect(app.status()).toMatchObject({ step: 1 });
  const byName = new Map(experimental(step1).map((o) => [`${o.kind}/${o.metadata.name}`, o]));
  expect([...byName.keys()].sort()).toEqual([
    'Deployment/guestbook-step-1-baseline',
    'Deployment/guestbook-step-1-candidate',
    'Service/guestbook-step-1-baseline',
    'Service/guestbook-step-1-candidate',
  ]);
  const baseline = byName.get('Deployment/guestbook-step-1-baseline')!;
  const candidate = byName.get('Deployment/guestbook-step-1-candidate')!;
  // specRef stable runs the old version, canary the new; replicas default to 1.
  expect(baseline.spec.template!.spec.containers[0].image).toBe('ghcr.io/stefanprodan/podinfo:6.7.0');
  expect(candidate.spec.template!.spec.containers[0].image).toBe('ghcr.io/stefanprodan/podinfo:6.7.1');
  expect([baseline.spec.replicas, candidate.spec.replicas]).toEqual([1, 2]);
  const own = { app: 'guestbook', 'rollgen.dev/experiment': 'guestbook-step-1-candidate' };
  expect(candidate.spec.selector).toEqual({ matchLabels: own });
  expect(candidate.spec.template!.metadata.labels).toEqual(own);
  const candidateService = byName.get('Service/guestbook-step-1-candidate')!;
  expect(candidateService.spec.selector).toEqual(own);
  // The stable Service's port (as routers and callers reach stable), then each container port (Argo's).
  expect(candidateService.spec.ports).toEqual([
    { name: 'http', port: 80, targetPort: 9898 },
    { name: 'port-9898', port: 9898, targetPort: 9898 },
  ]);
  // The rollout's own Services select by track label, which experiment pods do not carry.
  for (const name of ['guestbook', 'guestbook-canary']) {
    const svc = step1.find((o) => o.kind === 'Service' && o.metadata.name === name)!;
    expect(Object.keys(svc.spec.selector!)).toContain('rollgen.dev/track');
  }
  expect(experimental(await advanceAndBuild())).toEqual([]);
  expect(app.status()).toMatchObject({ step: 2 });
});

const rollout = (routing: string, experiment: string) => `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: api
spec:
  replicas: 4
${podTemplate('api', '          ports:\n            - {name: http, containerPort: 8080}\n')}  strategy:
    canary:
      canaryService: api-canary
      stableService: api
${routing}      steps:
        - setWeight: 25
        - experiment:
${experiment}        - setWeight: 50
`;

const ISTIO = `      trafficRouting:
        istio:
          virtualService: {name: api, routes: [primary]}
`;
const NGINX = '      trafficRouting:\n        nginx: {stableIngress: api}\n';
const ALB = '      trafficRouting:\n        alb: {ingress: api, servicePort: 80}\n';
/** SMI needs no object of the user's: the TrafficSplit is rollgen's. */
const SMI = '      trafficRouting:\n        smi: {}\n';

const apiSources = (routing: string, experiment: string, extra: Record<string, string> = {}) => {
  const text = rollout(routing, experiment);
  return {
    text,
    dir: sources({
      'rollout.yaml': text,
      'stable.yaml': service('api', 'api'),
      'canary.yaml': service('api-canary', 'api'),
      ...extra,
    }),
  };
};

test.each([
  [NGINX, 'Argo routes experiment weights only with alb, istio and smi, not nginx'],
  ['', 'an experiment weight needs trafficRouting (Argo refuses it without)'],
])('an experiment weight is refused at its line (%#)', async (routing, message) => {
  const experiment = '            templates:\n              - {name: c, specRef: canary, weight: 10}\n';
  const { dir, text } = apiSources(routing, experiment);
  const r = await runCli(['plan', 'src'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(new RegExp(`src/rollout\\.yaml:${lineOf(text, 'weight: 10')}:\\d+: ${escape(message)}`));
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('without duration: required analyses gate the step until complete; the others pass while running, as background analysis', async () => {
  const template = (name: string) => `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: ${name}
spec:
  metrics:
    - name: ok
      count: 1
      successCondition: result == true
      provider:
        web: {url: 'http://127.0.0.1:1/'}
`;
  const experiment = `            templates: [{name: c, specRef: canary}]
            analyses:
              - {name: must, templateName: must, requiredForCompletion: true}
              - {name: may, templateName: may}
`;
  const { dir } = apiSources(SMI, experiment, {
    'templates.yaml': `${template('must')}---\n${template('may')}`,
  });
  const r = await runCli(['plan', 'src'], dir);
  expect(r.stderr).toBe('');
  expect(r.stdout).toMatch(/^1 +1 +4 +25% +- +- +automatic \+ analysis must, may$/m);
  expect(r.stdout).toContain('step 1 gate: step analysis must');
  expect(r.stdout).toContain('step 1 gate: background analysis may');
});

test("the analysis args' {{templates.<name>.podTemplateHash}} name the experiment's workloads; an unknown template is refused", async () => {
  const asked: string[] = [];
  const server = http.createServer((req, res) => (asked.push(req.url ?? ''), res.end('true')));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    const template = `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: compare
spec:
  args: [{name: baseline}, {name: candidate}]
  metrics:
    - name: same
      successCondition: result == true
      provider:
        web: {url: 'http://127.0.0.1:${port}/{{args.baseline}}/{{args.candidate}}'}
`;
    const experiment = (ref: string) => `            duration: 5m
            templates: [{name: base, specRef: stable}, {name: cand, specRef: canary}]
            analyses:
              - name: compare
                templateName: compare
                args:
                  - {name: baseline, value: '{{templates.base.podTemplateHash}}'}
                  - {name: candidate, value: '{{templates.${ref}.replicaset.name}}'}
`;
    const { dir } = apiSources(SMI, experiment('cand'), { 'template.yaml': template });
    const r = await runCli(['analyze', 'src', '--step', '1', '--no-wait'], dir);
    expect(r.code).toBe(0);
    expect(asked).toEqual(['/api-step-1-base/api-step-1-cand']);
    const wrong = apiSources(SMI, experiment('nope'), { 'template.yaml': template });
    const refused = await runCli(['plan', 'src'], wrong.dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `src/rollout\\.yaml:${lineOf(wrong.text, 'name: candidate')}:\\d+: arg "candidate": the experiment has no template "nope"`,
      ),
    );
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('an experiment before any step is not run: warned at it, and a person starts the rollout', async () => {
  const text =
    rollout(SMI, '            templates: [{name: c, specRef: canary}]\n').replace(
      '        - setWeight: 25\n        - experiment:\n',
      '        - experiment:\n',
    ) + '        - setWeight: 75\n';
  const dir = sources({
    'rollout.yaml': text,
    'stable.yaml': service('api', 'api'),
    'canary.yaml': service('api-canary', 'api'),
  });
  const r = await runCli(['plan', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(
    new RegExp(
      `src/rollout\\.yaml:${lineOf(text, '- experiment:') + 1}:\\d+: warning: an experiment before any setWeight`,
    ),
  );
  expect(r.stdout).toMatch(/^start +- +- +- +- +- +manual$/m);
});

test('SMI routes an experiment weight to its Service, taken from stable, while the step lasts; the simulator sends that share there', async () => {
  const experiment = `            duration: 10m
            templates:
              - {name: baseline, specRef: stable, weight: 5}
              - {name: candidate, specRef: canary, weight: 10}
`;
  const { dir, text } = apiSources(SMI, experiment);
  const plan = await runCli(['plan', 'src'], dir);
  expect(plan.stderr).toBe('');
  expect(plan.stdout).toMatch(/^1 +1 +4 +25% \+ 15% experiment +- +- +after 600s$/m);
  // On the last step, its routes leave with the promotion, as its workloads do.
  const last = sources({
    'rollout.yaml': text.replace('        - setWeight: 50\n', ''),
    'stable.yaml': service('api', 'api'),
    'canary.yaml': service('api-canary', 'api'),
  });
  expect((await runCli(['plan', 'src'], last)).stdout).toMatch(/^promote +\d+ +4 +25% +- +- +automatic$/m);
  const out = ['src', 'out'];
  await rollgenClean(dir, ['advance', ...out]); // first deploy
  await rollgenClean(dir, ['advance', ...out]); // selector switch
  setImage(dir, '2.54', 'rollout.yaml');
  await rollgenClean(dir, ['advance', ...out]);
  const built = buildOutput(dir);
  // SMI has no published schema package: the rest is validated, the TrafficSplit read below.
  if (built !== undefined)
    validateAgainstSchemas(
      parseAllDocuments(built)
        .filter((d) => !UNMODELLED_GROUPS.includes(String(d.get('apiVersion')).split('/')[0]))
        .map((d) => d.toString())
        .join('---\n'),
    );
  const split = (yaml: string) =>
    parseAllDocuments(yaml)
      .map((d) => d.toJS() as { kind: string; spec: { backends: { service: string; weight: string }[] } })
      .find((o) => o.kind === 'TrafficSplit')!.spec.backends;
  const stepOne = fs.readFileSync(path.join(dir, 'out', 'trafficsplit-api.yaml'), 'utf8');
  expect(split(stepOne)).toEqual([
    { service: 'api-canary', weight: '25' },
    { service: 'api-step-1-baseline', weight: '5' },
    { service: 'api-step-1-candidate', weight: '10' },
    { service: 'api', weight: '60' },
  ]);
  const sim = await runCli(['simulate', 'src', 'out', '--host', 'api'], dir);
  expect(sim.stderr).toBe('');
  expect(sim.stdout).toContain(' 5.0%  service api-step-1-baseline -> api-step-1-baseline');
  expect(sim.stdout).toContain('10.0%  service api-step-1-candidate -> api-step-1-candidate');
  expect(sim.stdout).toContain('60.0%  service api -> api');
  await rollgenClean(dir, ['advance', ...out]);
  expect(split(fs.readFileSync(path.join(dir, 'out', 'trafficsplit-api.yaml'), 'utf8'))).toEqual([
    { service: 'api-canary', weight: '50' },
    { service: 'api', weight: '50' },
  ]);
  expect(fs.readdirSync(path.join(dir, 'out')).filter((f) => f.includes('step-1'))).toEqual([]);
  expect(lineOf(text, 'weight: 10')).toBeGreaterThan(0);
});

const virtualService = `apiVersion: networking.istio.io/v1beta1
kind: VirtualService
metadata:
  name: api
spec:
  hosts: [api]
  http:
    - name: primary
      route:
        - destination: {host: api}
          weight: 100
        - destination: {host: api-canary}
          weight: 0
`;

test('Istio routes an experiment weight to its Service in the VirtualService, taken from stable; the simulator sends that share there', async () => {
  const experiment =
    '            duration: 10m\n            templates:\n              - {name: candidate, specRef: canary, weight: 20}\n';
  const { dir } = apiSources(ISTIO, experiment, { 'vs.yaml': virtualService });
  const rendered = await runCli(['render', 'src', '--step', '1'], dir);
  expect(rendered.stderr).toBe('');
  const vs = parseAllDocuments(rendered.stdout)
    .map((d) => d.toJS() as { kind: string; spec: { http: { route: unknown[] }[] } })
    .find((o) => o.kind === 'VirtualService')!;
  expect(vs.spec.http[0].route).toEqual([
    { destination: { host: 'api' }, weight: 55 },
    { destination: { host: 'api-canary' }, weight: 25 },
    { destination: { host: 'api-step-1-candidate' }, weight: 20 },
  ]);
  const sim = await runCli(['simulate', 'src', '--step', '1', '--host', 'api'], dir);
  expect(sim.stderr).toBe('');
  expect(sim.stdout).toMatch(/20\.0% +service api-step-1-candidate -> api-step-1-candidate/);
  const next = await runCli(['render', 'src', '--step', '2'], dir);
  expect(next.stdout).not.toContain('api-step-1-candidate');
});

const albIngress = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: api
spec:
  ingressClassName: alb
  rules:
    - http:
        paths:
          - path: /*
            pathType: ImplementationSpecific
            backend:
              service: {name: api, port: {name: use-annotation}}
`;

test('ALB forwards an experiment weight to its Service at the servicePort, which the experiment Service offers with its container ports', async () => {
  const experiment =
    '            duration: 10m\n            templates:\n              - {name: candidate, specRef: canary, weight: 10}\n';
  const { dir } = apiSources(ALB, experiment, { 'ingress.yaml': albIngress });
  const rendered = await runCli(['render', 'src', '--step', '1'], dir);
  expect(rendered.stderr).toBe('');
  const objects = parseAllDocuments(rendered.stdout).map(
    (d) =>
      d.toJS() as {
        kind: string;
        metadata: { name: string; annotations?: Record<string, string> };
        spec: { ports?: unknown[] };
      },
  );
  const ingress = objects.find((o) => o.kind === 'Ingress')!;
  expect(
    JSON.parse(ingress.metadata.annotations!['alb.ingress.kubernetes.io/actions.api']).ForwardConfig.TargetGroups,
  ).toEqual([
    { ServiceName: 'api-canary', ServicePort: '80', Weight: 25 },
    { ServiceName: 'api-step-1-candidate', ServicePort: '80', Weight: 10 },
    { ServiceName: 'api', ServicePort: '80', Weight: 65 },
  ]);
  const svc = objects.find((o) => o.kind === 'Service' && o.metadata.name === 'api-step-1-candidate')!;
  expect(svc.spec.ports).toEqual([
    { name: 'http', port: 80, targetPort: 8080 },
    { name: 'http-8080', port: 8080, targetPort: 8080 },
  ]);
  const sim = await runCli(['simulate', 'src', '--step', '1', '--path', '/'], dir);
  expect(sim.stderr).toBe('');
  expect(sim.stdout).toMatch(/10\.0% +service api-step-1-candidate -> api-step-1-candidate/);
});

test('without a canaryService the stable Service would select the experiment pods too: warned at the experiment', async () => {
  const text = rollout(SMI, '            templates: [{name: c, specRef: canary}]\n').replace(
    '      canaryService: api-canary\n',
    '',
  );
  const dir = sources({ 'rollout.yaml': text, 'stable.yaml': service('api', 'api') });
  const r = await runCli(['plan', 'src'], dir);
  expect(r.stderr).toMatch(
    new RegExp(
      `src/rollout\\.yaml:${lineOf(text, '- experiment:') + 1}:\\d+: warning: without a canaryService the stable Service "api" selects pods of both versions`,
    ),
  );
});
