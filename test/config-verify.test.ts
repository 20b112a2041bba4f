import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { runCli } from './helpers/cli';

/**
 * rollgen.yaml `verify:`: per app or for all, unknown or misplaced fields refused at their line,
 * a verification that turns nothing on refused, and the pod readiness gate said at the ALB Ingress.
 */
const EXAMPLES = path.join(__dirname, '..', 'examples');
let dir = '';

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-config-verify-'));
  fs.cpSync(path.join(EXAMPLES, 'aws-alb', 'web'), path.join(dir, 'apps', 'web'), { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function config(text: string): void {
  fs.writeFileSync(path.join(dir, 'rollgen.yaml'), text);
}
const APP = 'apps:\n  - source: apps/web\n    output: deploy/web\n';

test('verify.aws per app and at the top: accepted; targetGroupIPs warns at an Ingress whose Namespace lacks the readiness gate label', async () => {
  config(`${APP}    verify: {aws: {weights: true, targetGroupIPs: true, region: eu-west-1}}\n`);
  let r = await runCli(['validate'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(
    "apps/web/ingress.yaml:5:14: warning: ALB Ingress shop/web: no Namespace shop in the app's source is labelled elbv2.k8s.aws/pod-readiness-gate-inject: enabled",
  );
  fs.writeFileSync(
    path.join(dir, 'apps', 'web', 'namespace.yaml'),
    'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n  labels:\n    elbv2.k8s.aws/pod-readiness-gate-inject: enabled\n',
  );
  r = await runCli(['validate'], dir);
  expect([r.code, r.stderr]).toEqual([0, '']);
  config(`${APP}verify:\n  aws: {weights: true, region: eu-west-1}\n`);
  fs.rmSync(path.join(dir, 'apps', 'web', 'namespace.yaml'));
  r = await runCli(['validate'], dir);
  expect([r.code, r.stderr]).toEqual([0, '']); // weights only: no pod IPs read, no warning
});

test.each([
  [
    'an unknown field',
    'verify: {aws: {weights: true, region: eu-west-1, wieghts: true}}',
    'rollgen.yaml:4:63: apps[0].verify.aws: unknown field "wieghts"',
  ],
  ['a misplaced field', 'verify: {weights: true}', 'rollgen.yaml:4:13: apps[0].verify: unknown field "weights"'],
  [
    'no region',
    'verify: {aws: {weights: true}}',
    'rollgen.yaml:4:19: apps[0].verify.aws: missing required field "region"',
  ],
])('%s is refused at its line', async (_what, line, message) => {
  config(`${APP}    ${line}\n`);
  const r = await runCli(['validate'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr.split('\n')[0]).toBe(message);
});

test('a region that is not one is refused at it', async () => {
  config(`${APP}    verify: {aws: {weights: true, region: Ireland}}\n`);
  const r = await runCli(['validate'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^rollgen\.yaml:4:\d+: apps\[0\]\.verify\.aws\.region/);
});

test('verify.aws that turns nothing on is refused, per app and at the top', async () => {
  config(`${APP}    verify: {aws: {region: eu-west-1, weights: false}}\n`);
  let r = await runCli(['validate'], dir);
  expect([r.code, r.stderr]).toEqual([
    2,
    'rollgen.yaml:4:19: verify.aws turns no verification on; set weights: true and/or targetGroupIPs: true, or remove it\n',
  ]);
  config(`${APP}verify:\n  aws: {region: eu-west-1}\n`);
  r = await runCli(['validate'], dir);
  expect([r.code, r.stderr]).toEqual([
    2,
    'rollgen.yaml:5:8: verify.aws turns no verification on; set weights: true and/or targetGroupIPs: true, or remove it\n',
  ]);
});

test('a kubeconfig outside the repository is refused at its line (KUBECONFIG names one elsewhere)', async () => {
  config(`${APP}    verify: {aws: {targetGroupIPs: true, region: eu-west-1, kubeconfig: ../../root/.kube/config}}\n`);
  const r = await runCli(['validate'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^rollgen\.yaml:4:\d+: apps\.verify\.aws\.kubeconfig .*outside the repository/);
});

test('the RBAC manifest shipped in docs grants get/list on EndpointSlices only, and the page shows the same file', () => {
  const file = path.join(__dirname, '..', 'docs', 'aws-verification', 'rbac.yaml');
  const text = fs.readFileSync(file, 'utf8');
  const docs = parseAllDocuments(text).map((d) => d.toJS());
  expect(docs.map((d) => d.kind)).toEqual(['ServiceAccount', 'Role', 'RoleBinding']);
  expect(docs[1].rules).toEqual([
    { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list'] },
  ]);
  expect(docs[2].roleRef).toEqual({ kind: 'Role', name: docs[1].metadata.name, apiGroup: 'rbac.authorization.k8s.io' });
  expect(fs.readFileSync(path.join(__dirname, '..', 'docs', 'aws-verification.md'), 'utf8')).toContain(text);
});
