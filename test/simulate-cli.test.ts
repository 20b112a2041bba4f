import * as fs from 'fs';
import * as path from 'path';
import { runCli } from './helpers/cli';
import { useAppDir } from './helpers/rollout-dir';

/** `rollgen simulate` says which state it simulated, defaults the request to the routes' own, and explains a miss. */
const EXAMPLE = path.join(__dirname, '..', 'examples', 'kruise-nginx', 'echoserver');
const app = useAppDir('rollgen-simulate-', EXAMPLE);
const simulate = async (...flags: string[]) => {
  const r = await runCli(['simulate', 'src', ...flags], app.dir);
  expect(r.stderr).toBe('');
  return r.stdout;
};
const editIngress = (edit: (text: string) => string) => {
  const file = path.join(app.dir, 'src', 'ingress.yaml');
  fs.writeFileSync(file, edit(fs.readFileSync(file, 'utf8')));
};

test('without --host and --path the request goes to the routes’ only host and path', async () => {
  editIngress((t) => t.replace('path: /', 'path: /api'));
  expect(await simulate('--step', '1')).toBe(
    [
      'state: src/rollouts-demo at step 1 of 4',
      "request: host echo.example.com (the routes' own), path /api (the routes' own)",
      'rule: canary-weight 20/100',
      '  80.0%  service echoserver -> echoserver',
      '  20.0%  service echoserver-canary -> echoserver-canary',
      '',
    ].join('\n'),
  );
});

test('the state simulated by default is the one the output holds (stable before any deploy)', async () => {
  expect((await simulate()).split('\n')[0]).toBe('state: src/rollouts-demo at stable only');
});

test('a request no route matches is told which hosts and paths the routes serve', async () => {
  expect(await simulate('--step', '2', '--host', 'echo.example.org')).toBe(
    'state: src/rollouts-demo at step 2 of 4\nrequest: host echo.example.org, path /\n' +
      'no route matches this request; the routes serve hosts: echo.example.com; paths: /\n',
  );
});

test('with two hosts there is no default host, and the miss lists both', async () => {
  editIngress((t) =>
    t.replace(
      '  rules:\n',
      '  rules:\n    - host: www.example.com\n      http:\n        paths:\n          - path: /\n            pathType: Prefix\n            backend:\n              service:\n                name: echoserver\n                port:\n                  number: 80\n',
    ),
  );
  const out = await simulate('--step', '1');
  expect(out).toContain('request: no host, path /\n');
  expect(out).toContain(
    'no route matches this request; the routes serve hosts: echo.example.com, www.example.com; paths: /\n',
  );
});
