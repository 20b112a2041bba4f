import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

/**
 * An HPA of the rollout's pods: rollgen renders fixed replica counts per step and never applies the
 * Rollout, so an HPA on either is warned where it names its target (never silently kept as is).
 */
const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'argo-nginx', 'echoserver');
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-hpa-'));
  fs.cpSync(EXAMPLE, path.join(dir, 'src'), { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const hpa = (kind: string, name: string) => `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: echoserver
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: ${kind}
    name: ${name}
  minReplicas: 2
  maxReplicas: 10
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}
`;

test.each([
  ['Rollout', 'echoserver', 'scales Rollout "echoserver", which rollgen reads but never writes to the output'],
  ['Deployment', 'echoserver', 'resizes Deployment "echoserver", whose replicas rollgen writes at every step'],
])('an HPA targeting the %s is warned at its scaleTargetRef.name', async (kind, name, says) => {
  fs.writeFileSync(path.join(dir, 'src', 'hpa.yaml'), hpa(kind, name));
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`src/hpa.yaml:9:11: warning: HorizontalPodAutoscaler "echoserver" ${says}`);
  const plan = await runCli(['plan', 'src'], dir);
  expect(plan.stderr).toContain('src/hpa.yaml:9:11: warning');
});

test('an HPA of some other workload says nothing', async () => {
  fs.writeFileSync(path.join(dir, 'src', 'hpa.yaml'), hpa('Deployment', 'worker'));
  const r = await runCli(['validate', 'src'], dir);
  expect(r.code).toBe(0);
  expect(r.stderr).not.toContain('HorizontalPodAutoscaler');
});
