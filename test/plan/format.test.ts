import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

const EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'kruise-nginx', 'echoserver');

/** `rollgen plan` of the example with its Deployment at `replicas`. */
async function planWithReplicas(replicas: number): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-plan-format-'));
  fs.cpSync(EXAMPLE, dir, { recursive: true });
  const file = path.join(dir, 'deployment.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('replicas: 5', `replicas: ${replicas}`));
  const r = await runCli(['plan', dir], os.tmpdir());
  fs.rmSync(dir, { recursive: true, force: true });
  expect(r.stderr).toBe('');
  return r.stdout;
}

test('plan shows the promote and clean-up rows and says what the gate column means', async () => {
  expect((await planWithReplicas(5)).split('\n').slice(6)).toEqual([
    '4         5       5       100%     -            -       automatic',
    'promote   5       5       100%     -            -       automatic',
    'clean-up  0       5       0%       -            -       -',
    'GATE: what must pass after a row lands before the next one may (manual: a person merges its PR; after Ns: N seconds later; automatic: at once)',
    '',
  ]);
});

test('plan counts in the singular for one', async () => {
  const plan = await planWithReplicas(1);
  expect(plan.split('\n')[0]).toMatch(/, canary, 1 replica, providers: ingress-nginx\)$/);
  expect(await planWithReplicas(2)).toMatch(/, 2 replicas,/);
});
