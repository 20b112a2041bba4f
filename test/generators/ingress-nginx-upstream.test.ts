import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { useAppDir } from '../helpers/rollout-dir';

/**
 * ingress-nginx routes by upstream, not by host and path: the canary Ingress attaches to the
 * upstream `<ns>-<service>-<port>` (controller.go mergeAlternativeBackends) and balancer.lua applies
 * it to every location proxying there. Regex servers (use-regex, rewrite-target) match `~* ^path`;
 * a server's root falls through to the Ingress's defaultBackend. Proved with `rollgen simulate`.
 */
const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'kruise-nginx', 'echoserver');
const app = useAppDir('rollgen-nginx-upstream-', EXAMPLE);

const ingressFile = () => path.join(app.dir, 'src', 'ingress.yaml');
const writeIngress = (text: string) => fs.writeFileSync(ingressFile(), text);
const backend = (service: string, port: string) => `backend: {service: {name: ${service}, port: {${port}}}}`;
const rule = (host: string, p: string, pathType: string, service = 'echoserver', port = 'number: 80') =>
  `    - host: ${host}\n      http: {paths: [{path: "${p}", pathType: ${pathType}, ${backend(service, port)}}]}\n`;
const ingress = (name: string, rules: string, extra = '', annotations = '') =>
  `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: ${name}\n${annotations}spec:\n  ingressClassName: nginx\n${extra}  rules:\n${rules}`;

const STABLE = rule('echo.example.com', '/', 'Prefix');

async function simulate(step: number, host: string, p: string, ...flags: string[]): Promise<string> {
  const r = await runCli(['simulate', 'src', '--step', String(step), '--host', host, '--path', p, ...flags], app.dir);
  return r.stdout;
}

async function warnings(): Promise<string> {
  const r = await runCli(['validate', 'src'], app.dir);
  expect(r.code).toBe(0);
  return r.stderr;
}

const SPLIT_20 = '  80.0%  service echoserver -> echoserver\n  20.0%  service echoserver-canary -> echoserver-canary\n';
const STABLE_ONLY = ' 100.0%  service echoserver -> echoserver\n';

describe('a canary applies to every location of the stable upstream', () => {
  it('canaries another Ingress on the same Service and port, and warns at its path', async () => {
    writeIngress(
      `${ingress('echoserver', STABLE)}---\n${ingress('echo-admin', rule('admin.example.com', '/', 'Prefix'))}`,
    );
    expect(await warnings()).toMatch(
      /^src\/ingress\.yaml:19:22: warning: Ingress "echo-admin" host admin\.example\.com path \/ goes to Service echoserver port 80, the ingress-nginx upstream canary Ingress "echoserver-canary" attaches to: .*list this Ingress in the rollout/,
    );
    for (const command of [
      ['plan', 'src'],
      ['render', 'src', '--step', '1'],
    ]) {
      expect((await runCli(command, app.dir)).stderr).toContain('warning: Ingress "echo-admin" host admin.example.com');
    }
    const out = await simulate(1, 'admin.example.com', '/');
    expect(out).toContain(
      'rule: canary-weight 20/100; host admin.example.com path / also proxies to Service echoserver port 80',
    );
    expect(out).toContain(SPLIT_20);
    expect(await simulate(2, 'admin.example.com', '/x', '--header', 'x-canary=on')).toContain(
      ' 100.0%  service echoserver-canary -> echoserver-canary\n',
    );
  });

  it('leaves another port name, another Service and another class alone, without a warning', async () => {
    const others =
      rule('admin.example.com', '/', 'Prefix', 'echoserver', 'name: http') +
      rule('api.example.com', '/', 'Prefix', 'other');
    const internal = ingress('echo-internal', rule('int.example.com', '/', 'Prefix')).replace(
      'ingressClassName: nginx',
      'ingressClassName: nginx-internal',
    );
    writeIngress(`${ingress('echoserver', STABLE)}---\n${ingress('echo-admin', others)}---\n${internal}`);
    expect(await warnings()).toBe('');
    expect(await simulate(1, 'admin.example.com', '/')).toContain(`rule: no canary\n${STABLE_ONLY}`);
    expect(await simulate(1, 'int.example.com', '/')).toContain(`rule: no canary\n${STABLE_ONLY}`);
  });

  it('canaries what falls through to spec.defaultBackend, and warns there', async () => {
    const extra = `  defaultBackend:\n    service: {name: echoserver, port: {number: 80}}\n`;
    writeIngress(ingress('echoserver', rule('echo.example.com', '/api', 'Prefix'), extra));
    expect(await warnings()).toMatch(
      /^src\/ingress\.yaml:8:5: warning: Ingress "echoserver" host echo\.example\.com path \/ \(no path matches: spec\.defaultBackend\) goes to Service echoserver port 80, .*point spec\.defaultBackend at another Service/,
    );
    const out = await simulate(1, 'echo.example.com', '/other');
    expect(out).toContain(
      'rule: canary-weight 20/100; host echo.example.com path / (no path matches: spec.defaultBackend)',
    );
    expect(out).toContain(SPLIT_20);
    expect(await simulate(1, 'echo.example.com', '/api/x')).toContain(`rule: canary-weight 20/100\n${SPLIT_20}`);
  });

  it('without a defaultBackend, a path no rule serves still matches no route', async () => {
    writeIngress(ingress('echoserver', rule('echo.example.com', '/api', 'Prefix')));
    expect(await simulate(1, 'echo.example.com', '/other')).toContain('no route matches this request');
  });
});

describe('regex locations', () => {
  const regex = `  annotations:\n    nginx.ingress.kubernetes.io/use-regex: "true"\n`;

  it('matches use-regex paths as case-insensitive prefix regexes, longest path first', async () => {
    const paths =
      '    - host: echo.example.com\n      http:\n        paths:\n' +
      `          - {path: "/app(/|$)(.*)", pathType: ImplementationSpecific, ${backend('echoserver', 'number: 80')}}\n` +
      `          - {path: /app/administration, pathType: Exact, ${backend('other', 'number: 80')}}\n`;
    writeIngress(ingress('echoserver', paths, '', regex));
    expect(await simulate(1, 'echo.example.com', '/APP/x')).toContain(`rule: canary-weight 20/100\n${SPLIT_20}`);
    expect(await simulate(1, 'echo.example.com', '/app')).toContain(SPLIT_20);
    // In a regex server even an Exact path is a `~* ^path` prefix; the longer path is tried first.
    expect(await simulate(1, 'echo.example.com', '/App/Administration/x')).toContain(
      'rule: no canary\n 100.0%  service other -> NO READY PODS',
    );
    expect(await simulate(1, 'echo.example.com', '/app/admin')).toContain(SPLIT_20);
    expect(await simulate(1, 'echo.example.com', '/application')).toContain('no route matches this request');
    expect(await simulate(1, 'echo.example.com', '/other')).toContain('no route matches this request');
  });

  it('a rewrite-target with captures makes the server regex too', async () => {
    const rewrite = `  annotations:\n    nginx.ingress.kubernetes.io/rewrite-target: /$2\n`;
    writeIngress(
      ingress('echoserver', rule('echo.example.com', '/svc(/|$)(.*)', 'ImplementationSpecific'), '', rewrite),
    );
    expect(await simulate(1, 'echo.example.com', '/svc/a/b')).toContain(SPLIT_20);
  });
});

describe('maxTrafficWeight below 100', () => {
  const GOLDEN = path.join(__dirname, '..', 'golden', 'ingress-nginx', 'argo-max-weight-below-100', 'source');
  const argo = useAppDir('rollgen-nginx-weight-', GOLDEN);

  it('gets the share the plan shows: ingress-nginx reads canary-weight-total only above 100', async () => {
    const r = await runCli(['simulate', 'src', '--step', '1'], argo.dir);
    expect(r.stdout).toContain(
      'rule: canary-weight 12/120\n  90.0%  service echoserver -> echoserver\n  10.0%  service echoserver-preview -> echoserver-canary',
    );
    const exact = fs
      .readFileSync(path.join(argo.dir, 'src', 'rollout.yaml'), 'utf8')
      .replace('maxTrafficWeight: 30', 'maxTrafficWeight: 50');
    fs.writeFileSync(path.join(argo.dir, 'src', 'rollout.yaml'), exact);
    const rendered = (await runCli(['render', 'src', '--step', '1'], argo.dir)).stdout;
    expect(rendered).toContain('canary-weight: "6"');
    expect(rendered).not.toContain('canary-weight-total');
    expect((await runCli(['simulate', 'src', '--step', '3'], argo.dir)).stdout).toContain(
      'rule: canary-weight 30/100\n  70.0%  service echoserver -> echoserver\n  30.0%  service echoserver-preview -> echoserver-canary',
    );
  });
});
