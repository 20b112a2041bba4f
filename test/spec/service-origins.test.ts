import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

/** A Service the rollout names but the app lacks is reported where its name is written, in every format. */
const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function copy(example: string, rename: [RegExp, string]): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-svc-origin-'));
  fs.cpSync(path.join(EXAMPLES, example), path.join(dir, 'src'), { recursive: true });
  const rollout = path.join(dir, 'src', 'rollout.yaml');
  fs.writeFileSync(rollout, fs.readFileSync(rollout, 'utf8').replace(rename[0], rename[1]));
  return dir;
}

test.each([
  ['argo-nginx/echoserver', /canaryService: echoserver-preview/, 'canaryService: nope', 'canary Service "nope"'],
  ['argo-nginx/echoserver', /stableService: echoserver/, 'stableService: nope', 'Service "nope"'],
  ['kruise-nginx/echoserver', /service: echoserver/, 'service: nope', 'Service "nope"'],
  ['argo-blue-green/web', /previewService: web-preview/, 'previewService: nope', 'preview Service "nope"'],
])('%s: %s renamed is reported at that field', async (example, from, to, says) => {
  const repo = copy(example, [from, to]);
  const lines = fs.readFileSync(path.join(repo, 'src', 'rollout.yaml'), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.includes(to)) + 1;
  const col = lines[line - 1].indexOf('nope') + 1;
  const r = await runCli(['validate', 'src'], repo);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`src/rollout.yaml:${line}:${col}: rollout`);
  expect(r.stderr).toContain(`${says} is not among the app's manifests`);
});

/**
 * trafficRouting without stableService: the cause is reported at the canary strategy, and it is the
 * one error: the provider checks that look for that Service in the routing objects (an Ingress path,
 * an ALB action, ...) would only name a Service "".
 */
test.each(['argo-nginx/echoserver', 'aws-alb/web', 'smi/web', 'ambassador/greeter'])(
  '%s without stableService: one error, at spec.strategy.canary',
  async (example) => {
    const repo = copy(example, [/^ *stableService: .*\n/m, '']);
    const lines = fs.readFileSync(path.join(repo, 'src', 'rollout.yaml'), 'utf8').split('\n');
    const canary = lines.findIndex((l) => l.trim() === 'canary:');
    const first = lines[canary + 1];
    const r = await runCli(['validate', 'src'], repo);
    expect(r.code).toBe(2);
    const errors = r.stderr.split('\n').filter((l) => l && !l.includes(': warning: '));
    expect(errors).toEqual([
      `src/rollout.yaml:${canary + 2}:${first.search(/\S/) + 1}: rollout ${path.basename(example)}: trafficRouting needs stableService: add it with the name of the Service your routing sends stable traffic to (Argo refuses trafficRouting without it)`,
    ]);
  },
);
