import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { lineOf } from '../helpers/example-app';

/**
 * Higress/MSE build a header or cookie canary route from the stable route with its header matches
 * replaced (annotations/canary.go ApplyByHeader): a stable Ingress limited to a header by its own
 * `*-match-header-*` annotation would let the step's header reach the canary without it. Refused at
 * that annotation; weighted canaries (merged into the stable route) keep the limit.
 */
const GOLDEN = path.join(__dirname, '..', 'golden');

let dir = '';
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-higress-match-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The golden case's source with `key: value` added to its stable Ingress; the Ingress text. */
function withAnnotation(provider: string, name: string, key: string): string {
  fs.cpSync(path.join(GOLDEN, provider, name, 'source'), path.join(dir, 'app'), { recursive: true });
  const file = path.join(dir, 'app', 'ingress.yaml');
  const before = fs.readFileSync(file, 'utf8');
  const text = /^ {2}annotations:\n/m.test(before)
    ? before.replace(/^ {2}annotations:\n/m, `$&    ${key}: tenant-a\n`)
    : before.replace(/^metadata:\n/m, `$&  annotations:\n    ${key}: tenant-a\n`);
  fs.writeFileSync(file, text);
  return text;
}

test.each([
  ['higress', 'kruise-steps', 'higress.io/exact-match-header-x-tenant', 'Higress'],
  ['mse', 'kruise-query', 'mse.ingress.kubernetes.io/prefix-match-header-x-tenant', 'MSE Ingress'],
])(
  '%s: header steps with the stable limited to a header are refused at the annotation',
  async (provider, name, key, product) => {
    const text = withAnnotation(provider, name, key);
    const r = await runCli(['validate', 'app'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^app/ingress.yaml:${lineOf(text, key)}:\\d+: annotation ${key.replace(/\./g, '\\.')} on Ingress "\\S+" limits the stable route to a header, but step 1 matches a header or cookie, and ${product} builds that canary route`,
        'm',
      ),
    );
  },
);

test('weight-only steps keep the stable header limit and are rendered', async () => {
  withAnnotation('higress', 'kruise-v1alpha1-weight', 'higress.io/exact-match-header-x-tenant');
  const rollout = path.join(dir, 'app', 'rollout.yaml');
  const steps = fs.readFileSync(rollout, 'utf8').replace(/^ {8}- matches:\n(?: {12}.*\n)+ {10}/m, '        - ');
  fs.writeFileSync(rollout, steps);
  const r = await runCli(['validate', 'app'], dir);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
});
