import * as fs from 'fs';
import * as path from 'path';
import { runCli } from '../helpers/cli';
import { useAppDir } from '../helpers/rollout-dir';

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'kruise-nginx', 'echoserver');
const app = useAppDir('rollgen-schema-', EXAMPLE);

function edit(file: string, from: string | RegExp, to: string): void {
  const f = path.join(app.dir, 'src', file);
  const text = fs.readFileSync(f, 'utf8');
  expect(text).toMatch(from);
  fs.writeFileSync(f, text.replace(from, to));
}

test('replcas: 10 in the Deployment fails validate at its line, and nothing renders', async () => {
  edit('deployment.yaml', 'replicas: 5', 'replcas: 10');
  const r = await runCli(['validate', 'src'], app.dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('src/deployment.yaml:8:3: Deployment echoserver: spec: unknown field "replcas"\n');
  expect((await runCli(['advance', 'src', 'out'], app.dir)).code).toBe(2);
  expect(fs.existsSync(app.out())).toBe(false);
});

test('unknown and mistyped fields in every source kind are reported at once, each at its line', async () => {
  edit('deployment.yaml', '- containerPort: 8080', '- containerPort: "8080"');
  edit('service.yaml', 'targetPort: 8080', 'targetPort: 8080\n      protocl: TCP');
  edit('ingress.yaml', 'pathType: Prefix', 'pathType: Prefix\n            weight: 5');
  const r = await runCli(['validate', 'src'], app.dir);
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toEqual([
    expect.stringMatching(
      /^src\/deployment\.yaml:\d+:\d+: Deployment echoserver: spec\.template\.spec\.containers\[0\]\.ports\[0\]\.containerPort: must be a number, found a string$/,
    ),
    expect.stringMatching(
      /^src\/ingress\.yaml:\d+:\d+: Ingress echoserver: spec\.rules\[0\]\.http\.paths\[0\]: unknown field "weight"$/,
    ),
    expect.stringMatching(
      /^src\/service\.yaml:\d+:\d+: Service echoserver: spec\.ports\[0\]: unknown field "protocl"$/,
    ),
  ]);
});

test('route kinds: a mistyped Istio field is an error; an unknown one a warning (CRD models can lag)', async () => {
  fs.writeFileSync(
    path.join(app.dir, 'src', 'virtualservice.yaml'),
    [
      'apiVersion: networking.istio.io/v1',
      'kind: VirtualService',
      'metadata:',
      '  name: other',
      'spec:',
      '  hosts: [other]',
      '  http:',
      '    - route:',
      '        - destination: {host: other}',
      '          weight: fifty',
      '      retriez: 3',
      '',
    ].join('\n'),
  );
  const r = await runCli(['validate', 'src'], app.dir);
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toEqual([
    'src/virtualservice.yaml:10:19: VirtualService other: spec.http[0].route[0].weight: must be a number, found a string',
    'src/virtualservice.yaml:11:7: warning: VirtualService other: spec.http[0]: unknown field "retriez" (not in the published schema rollgen knows; check it against your CRD version)',
  ]);
});
