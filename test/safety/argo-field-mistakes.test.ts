import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

/*
 * Argo fields that were accepted and then dropped or copied through unsafely (QA pass on Argo
 * fields): each is honoured, or refused at its own line, as Argo's validation and controller decide.
 */
const ROOT = path.join(__dirname, '..', '..');
const NGINX = path.join(ROOT, 'examples', 'argo-nginx', 'echoserver');
const ISTIO_MIRROR = path.join(ROOT, 'test', 'golden', 'istio', 'argo-header-mirror', 'source');
const GATEWAY_MIRROR = path.join(ROOT, 'test', 'golden', 'gateway-api', 'argo-plugin-routes', 'source');

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A copy of `source` whose rollout.yaml has `edit` applied (each `from` must be there). */
function appWith(source: string, edits: readonly [string | RegExp, string][]): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-argo-fields-'));
  fs.cpSync(source, dir, { recursive: true });
  const file = path.join(dir, 'rollout.yaml');
  let text = fs.readFileSync(file, 'utf8');
  for (const [from, to] of edits) {
    if (!(typeof from === 'string' ? text.includes(from) : from.test(text))) throw new Error(`no ${from} in rollout`);
    text = text.replace(from, to);
  }
  fs.writeFileSync(file, text);
  return dir;
}

/** The 1-based line of the first line holding `needle` in the app's rollout.yaml. */
const lineOf = (needle: string): number =>
  fs
    .readFileSync(path.join(dir, 'rollout.yaml'), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(needle)) + 1;

const MIRROR_EXACT = '              - method: {exact: GET}\n                path: {prefix: /api}';
/** The QA probe: a method condition next to a header condition (the combination that slipped through). */
const mirrorBy = (method: string): [string, string][] => [
  [MIRROR_EXACT, `              - method: ${method}\n                headers: {x-mirror: {exact: "1"}}`],
];

describe('setMirrorRoute method regex/prefix', () => {
  test('istio: the mirror rule keeps the method condition, so writes are not mirrored', async () => {
    const app = appWith(ISTIO_MIRROR, mirrorBy('{regex: "GET|HEAD"}'));
    const r = await runCli(['render', '.', '--step', '2'], app);
    expect(r.code).toBe(0);
    const block = r.stdout.slice(r.stdout.indexOf('- name: mirror-get'));
    expect(block.slice(0, block.indexOf('route:'))).toContain('method:\n            regex: GET|HEAD');
  });

  test('istio: a prefix method is written as a prefix StringMatch', async () => {
    const app = appWith(ISTIO_MIRROR, mirrorBy('{prefix: P}'));
    const r = await runCli(['render', '.', '--step', '2'], app);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('method:\n            prefix: P');
  });

  test('gateway-api: an HTTPRoute method is one exact value, so a regex method is refused, not dropped', async () => {
    const app = appWith(GATEWAY_MIRROR, [['- method: {exact: GET}', '- method: {regex: "GET|HEAD"}']]);
    const r = await runCli(['plan', '.'], app);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('method regex GET|HEAD (HTTPRoute matches one exact method');
  });
});

describe('maxSurge / maxUnavailable', () => {
  test('both 0 is refused at maxUnavailable, as Argo and Kubernetes refuse it', async () => {
    const app = appWith(NGINX, [['    canary:\n', '    canary:\n      maxSurge: 0\n      maxUnavailable: 0\n']]);
    const r = await runCli(['plan', '.'], app);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `rollout.yaml:${lineOf('maxUnavailable: 0')}:23: maxSurge and maxUnavailable are both 0, so no pod can be added or replaced and the rollout never progresses (Argo and Kubernetes refuse this); raise one of them (e.g. maxUnavailable: 1)\n`,
    );
  });

  test('a string without % is refused at the field, saying what to write', async () => {
    const app = appWith(NGINX, [['    canary:\n', '    canary:\n      maxSurge: "1"\n      maxUnavailable: 25%\n']]);
    const r = await runCli(['plan', '.'], app);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `rollout.yaml:${lineOf('maxSurge: "1"')}:17: maxSurge "1" is a string without %: Argo reads it as 1% and Kubernetes refuses it in a Deployment; write 1 (a number of pods) or "1%" (a percentage)\n`,
    );
  });

  test('blue-green maxUnavailable "1" is refused too', async () => {
    const bg = path.join(ROOT, 'examples', 'argo-blue-green');
    const source = fs.readdirSync(bg).find((d) => fs.existsSync(path.join(bg, d, 'rollout.yaml')))!;
    const app = appWith(path.join(bg, source), [['    blueGreen:\n', '    blueGreen:\n      maxUnavailable: "1"\n']]);
    const r = await runCli(['plan', '.'], app);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `rollout.yaml:${lineOf('maxUnavailable: "1"')}:23: maxUnavailable "1" is a string without %`,
    );
  });
});

describe('antiAffinity', () => {
  const both =
    '    canary:\n      antiAffinity:\n        requiredDuringSchedulingIgnoredDuringExecution: {}\n        preferredDuringSchedulingIgnoredDuringExecution: {weight: 10}\n';

  test('required and preferred together are refused at antiAffinity, as Argo refuses them', async () => {
    const app = appWith(NGINX, [['    canary:\n', both]]);
    const r = await runCli(['plan', '.'], app);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `rollout.yaml:${lineOf('requiredDuring')}:9: antiAffinity sets both requiredDuringSchedulingIgnoredDuringExecution and preferredDuringSchedulingIgnoredDuringExecution; Argo takes exactly one (and refuses this): keep the one you mean\n`,
    );
  });

  test('a preferred weight outside 1-100 is refused at the weight', async () => {
    const app = appWith(NGINX, [
      [
        '    canary:\n',
        '    canary:\n      antiAffinity:\n        preferredDuringSchedulingIgnoredDuringExecution: {weight: 0}\n',
      ],
    ]);
    const r = await runCli(['plan', '.'], app);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('antiAffinity preferred weight 0: Argo takes a weight from 1 to 100');
  });
});

describe('experiment and plugin steps', () => {
  const gates = (plan: string): string[] =>
    plan
      .split('\n')
      .filter((l) => /^(start|\d+|promote)\s/.test(l))
      .map((l) => l.trim().split(/\s+/).pop()!);

  /** The nginx example with these steps (steps: is the last field of its rollout.yaml). */
  function withSteps(steps: readonly string[]): string {
    const app = appWith(NGINX, []);
    const file = path.join(app, 'rollout.yaml');
    const text = fs.readFileSync(file, 'utf8');
    const head = text.slice(0, text.indexOf('steps:'));
    fs.writeFileSync(file, `${head}steps:\n${steps.map((s) => `        ${s}`).join('\n')}\n`);
    return app;
  }

  test('a step plugin makes the gate before it manual, and the warning says so', async () => {
    const app = withSteps(['- setWeight: 200', '- plugin: {name: acme/step, config: {x: 1}}', '- setWeight: 500']);
    const r = await runCli(['plan', '.'], app);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `rollout.yaml:${lineOf('- plugin:')}:19: warning: spec.strategy.canary.steps[1].plugin: rollgen runs no step plugin (they run in the Argo controller) while Argo holds here until it succeeds and aborts if it fails; so the gate before this step is manual: do what the plugin does before you merge the next step\n`,
    );
    expect(gates(r.stdout)).toEqual(['manual', 'manual', 'automatic', 'automatic']);
  });

  test('an experiment runs for its duration: the gate before it is timed; one without duration or required analysis waits for a person', async () => {
    const experiment = '- experiment: {duration: 1h, templates: [{name: c, specRef: canary}]}';
    let r = await runCli(['plan', '.'], withSteps(['- setWeight: 200', experiment, '- setWeight: 500']));
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(gates(r.stdout)).toEqual(['manual', '3600s', 'automatic', 'automatic']);
    fs.rmSync(dir, { recursive: true, force: true });
    const forever = '- experiment: {templates: [{name: c, specRef: canary}]}';
    r = await runCli(['plan', '.'], withSteps(['- setWeight: 200', forever, '- setWeight: 500']));
    expect(gates(r.stdout)).toEqual(['manual', 'manual', 'automatic', 'automatic']);
  });

  test('a timed pause after an experiment waits after its duration; two timed pauses add up', async () => {
    let r = await runCli(
      ['plan', '.'],
      withSteps([
        '- setWeight: 200',
        '- experiment: {duration: 1h, templates: [{name: c, specRef: canary}]}',
        '- pause: {duration: 10m}',
        '- setWeight: 500',
      ]),
    );
    expect(r.code).toBe(0);
    expect(gates(r.stdout)).toEqual(['manual', '4200s', 'automatic', 'automatic']);
    fs.rmSync(dir, { recursive: true, force: true });
    r = await runCli(
      ['plan', '.'],
      withSteps(['- setWeight: 200', '- pause: {duration: 5m}', '- pause: {duration: 10m}', '- setWeight: 500']),
    );
    expect(gates(r.stdout)[1]).toBe('900s');
  });
});
