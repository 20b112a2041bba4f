import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

/**
 * Two rollouts of one app that route the same stable Service would share one canary Service
 * (`<service>-canary`) whose selector matches one rollout's canary pods only. Argo refuses a Service
 * managed by another Rollout; rollgen refuses it at the second rollout's reference, whatever the provider.
 */
const GOLDEN = path.join(__dirname, '..', 'golden');
let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-shared-service-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A golden case's source plus a copy `b-<file>` of each file with each exact [from, to] replaced. */
function appWithSecondRollout(golden: string, copies: Readonly<Record<string, readonly [string, string][]>>): void {
  fs.cpSync(path.join(GOLDEN, golden, 'source'), dir, { recursive: true });
  for (const [file, edits] of Object.entries(copies)) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    fs.writeFileSync(
      path.join(dir, `b-${file}`),
      edits.reduce((t, [from, to]) => t.replaceAll(from, to), text),
    );
  }
}

/** metadata.name and (with `field`) one reference renamed to echoserver-b. */
const rename = (field?: string): [string, string][] => [
  ['\n  name: echoserver\n', '\n  name: echoserver-b\n'],
  ...(field ? [[`${field}: echoserver\n`, `${field}: echoserver-b\n`] as [string, string]] : []),
];

test('GIVEN two gateway-api rollouts on one stable Service through two HTTPRoutes WHEN planned THEN refused at the second rollout’s service field', async () => {
  appWithSecondRollout('gateway-api/kruise-weight-steps', {
    'deployment.yaml': rename(),
    'rollout.yaml': [...rename('httpRouteName'), ['      name: echoserver\n', '      name: echoserver-b\n']],
    'httproute.yaml': [...rename(), ['echo.example.com', 'b.example.com']],
  });
  const r = await runCli(['plan', '.'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^rollout\.yaml:22:20: rollouts echoserver-b \(b-rollout\.yaml:22\) and echoserver both route Service "echoserver": .*give rollout echoserver a Service of its own$/m,
  );
});

test('GIVEN two ingress-nginx rollouts sharing stableService and canaryService WHEN planned THEN both Services are refused at the second rollout’s fields', async () => {
  appWithSecondRollout('ingress-nginx/argo-nginx-workloadref', {
    'deployment.yaml': rename(),
    'rollout.yaml': [...rename('stableIngress'), ['    name: echoserver\n', '    name: echoserver-b\n']],
    'ingress.yaml': [...rename(), ['echo.example.com', 'b.example.com']],
  });
  const r = await runCli(['plan', '.'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /^rollout\.yaml:13:22: rollouts echoserver-b \(b-rollout\.yaml:13\) and echoserver both route Service "echoserver":/m,
  );
  expect(r.stderr).toMatch(/^rollout\.yaml:14:22: .* both route Service "echoserver-preview":/m);
});
