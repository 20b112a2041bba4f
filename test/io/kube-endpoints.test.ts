import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readReadyEndpoints } from '../../src/io/kube/endpoint-slices';
import { FakeKubeApi } from '../helpers/fake-kube-api';

/**
 * The EndpointSlice read of verify.aws.targetGroupIPs against a loopback Kubernetes API: the token
 * from the kubeconfig's exec plugin (as `aws eks get-token` gives it), ready endpoints only, on the
 * Service port's name; a missing kubeconfig or a refusal is said, never a result.
 */
let kube: FakeKubeApi;
let dir: string;
beforeAll(async () => {
  kube = await FakeKubeApi.start();
});
afterAll(() => kube.close());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-kube-'));
  kube.reset();
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('an exec credential plugin gives the token; only ready endpoints, on the named port', async () => {
  const file = kube.writeKubeconfig(dir);
  const plugin = path.join(dir, 'get-token.js');
  fs.writeFileSync(
    plugin,
    `process.stdout.write(JSON.stringify({kind: 'ExecCredential', apiVersion: 'client.authentication.k8s.io/v1beta1', status: {token: process.env.TOKEN_FROM_ENV}}))`,
  );
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(
      /user: \{token: [^}]+\}/,
      `user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(plugin)}], env: [{name: TOKEN_FROM_ENV, value: ${kube.token}}]}}`,
    );
  fs.writeFileSync(file, text);
  kube.endpoints.set('shop/web', { ready: ['10.0.0.2', '10.0.0.1'], notReady: ['10.0.0.9'] });
  expect(await readReadyEndpoints(file, {}, 'shop', 'web', 'http')).toEqual({ ok: ['10.0.0.1:8080', '10.0.0.2:8080'] });
  expect(await readReadyEndpoints(file, {}, 'shop', 'web', 'metrics')).toEqual({ ok: [] });
});

test('KUBECONFIG when rollgen.yaml names none; neither: said', async () => {
  const file = kube.writeKubeconfig(dir);
  kube.endpoints.set('shop/web', { ready: ['10.0.0.1'] });
  expect(await readReadyEndpoints(undefined, { KUBECONFIG: file }, 'shop', 'web', 'http')).toEqual({
    ok: ['10.0.0.1:8080'],
  });
  expect(await readReadyEndpoints(undefined, {}, 'shop', 'web', 'http')).toEqual({
    error: 'no kubeconfig: set verify.aws.kubeconfig in rollgen.yaml or the KUBECONFIG variable',
  });
  expect(await readReadyEndpoints(path.join(dir, 'none'), {}, 'shop', 'web', 'http')).toEqual({
    error: `reading the EndpointSlices of shop/web: the kubeconfig ${path.join(dir, 'none')} cannot be read`,
  });
});
