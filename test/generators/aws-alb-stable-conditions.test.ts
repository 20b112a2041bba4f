import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { lineOf } from '../helpers/example-app';

/**
 * A header route is an ALB rule of its own ahead of the stable action's path, and a rule ANDs its
 * conditions: the stable action's own `conditions.<action>` (a source-ip limit) are copied onto
 * every header route, so sending the header never passes a limit the stable path keeps.
 */
const CASE = path.join(__dirname, '..', 'golden', 'aws-alb', 'header-routes-stable-conditions', 'source');
const PLAIN = path.join(__dirname, '..', 'golden', 'aws-alb', 'header-routes', 'source');
const KEY = 'alb.ingress.kubernetes.io/conditions.web';

let dir = '';
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-alb-cond-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The case's source with the stable action's conditions annotation set to `value`. */
function withConditions(value: string): string {
  fs.cpSync(CASE, path.join(dir, 'src'), { recursive: true });
  const file = path.join(dir, 'src', 'ingress.yaml');
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/^( {4}alb\.ingress\.kubernetes\.io\/conditions\.web: ).*$/m, `$1'${value}'`);
  fs.writeFileSync(file, text);
  return text;
}

const simulate = (source: string, ...args: string[]) =>
  runCli(['simulate', source, '--step', '2', '--header', 'X-Cohort=beta-1', ...args], dir);

test('a request sending the header meets the stable source-ip limit too (without the limit it reaches the canary)', async () => {
  const limited = await simulate(CASE);
  expect(limited.code).toBe(0);
  expect(limited.stdout).toContain('no route matches this request');
  expect(limited.stdout).not.toMatch(/canary/);
  const open = await simulate(PLAIN);
  expect(open.stdout).toMatch(/100(\.0)?% .*web-canary/);
});

test('the header route carries the stable conditions first, then its header', async () => {
  const r = await runCli(['render', CASE, '--step', '2'], dir);
  const line = r.stdout.split('\n').find((l) => l.includes('conditions.beta-users:'));
  expect(line).toContain('source-ip');
  expect(line!.indexOf('source-ip')).toBeLessThan(line!.indexOf('http-header'));
});

test('stable conditions that are no JSON list are refused at the annotation', async () => {
  const text = withConditions('{"field":"source-ip"}');
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    new RegExp(
      `^src/ingress.yaml:${lineOf(text, KEY)}:\\d+: annotation ${KEY.replace(/\./g, '\\.')} on Ingress "web" is not a JSON list`,
      'm',
    ),
  );
});

test("stable condition values count against ALB's five per header-route rule", async () => {
  withConditions('[{"field":"source-ip","sourceIpConfig":{"values":["10.0.0.0/8","192.168.0.0/16"]}}]');
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("and the stable action's 2) exceed ALB's 5 per rule");
});
