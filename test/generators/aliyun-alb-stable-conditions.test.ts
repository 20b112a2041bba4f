import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { lineOf } from '../helpers/example-app';

/**
 * A stable Ingress's `conditions.<stable Service>` (a source-ip limit) holds for weighted canary
 * traffic (merged into the stable rule), but a header/cookie canary Ingress is a rule of its own that
 * ALB allows no custom conditions on: such steps are refused at the annotation.
 */
const GOLDEN = path.join(__dirname, '..', 'golden', 'aliyun-alb');
const KEY = 'alb.ingress.kubernetes.io/conditions.echoserver';
const LIMIT = `    ${KEY}: '[{"type":"SourceIp","sourceIpConfig":{"values":["10.0.0.0/8"]}}]'\n`;

let dir = '';
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-aliyun-cond-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The golden case's source with the source-ip limit on its stable Ingress; the Ingress text. */
function limited(name: string): string {
  fs.cpSync(path.join(GOLDEN, name, 'source'), path.join(dir, 'app'), { recursive: true });
  const file = path.join(dir, 'app', 'ingress.yaml');
  const text = fs.readFileSync(file, 'utf8').replace(/^ {2}annotations:\n/m, `$&${LIMIT}`);
  fs.writeFileSync(file, text);
  return text;
}

test('header steps on an Ingress whose stable rule has its own conditions are refused at the annotation', async () => {
  const text = limited('header-only');
  const r = await runCli(['validate', 'app'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    new RegExp(
      `^app/ingress.yaml:${lineOf(text, KEY)}:\\d+: annotation ${KEY.replace(/\./g, '\\.')} on Ingress "echoserver" limits the stable Service's forwarding rule, but step 1 matches a header or cookie`,
      'm',
    ),
  );
});

test('weighted steps keep the limit (merged into the stable rule) and are rendered', async () => {
  limited('weight-only');
  const r = await runCli(['validate', 'app'], dir);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
});
