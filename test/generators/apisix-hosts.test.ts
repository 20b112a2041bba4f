import * as path from 'path';
import { runCli } from '../helpers/cli';

/** `simulate` reads an ApisixRoute's `match.hosts`: the request defaults to the routes' host, and another host matches nothing. */
const SOURCE = path.join(__dirname, '..', 'golden', 'apisix', 'argo-header-route', 'source');
const HEADERS = ['--header', 'x-beta=yes', '--header', 'x-region=eu'];

test("the request takes the ApisixRoute's own host, and the hint lists it", async () => {
  const r = await runCli(['simulate', SOURCE, '--step', '1', ...HEADERS], __dirname);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("request: host web.example.com (the routes' own)");
  expect(r.stdout).toMatch(/100\.0% +service web-canary/);
});

test('a request for another host matches no rule, and the hint names the hosts the routes serve', async () => {
  const r = await runCli(['simulate', SOURCE, '--step', '1', ...HEADERS, '--host', 'other.example.com'], __dirname);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(
    'no route matches this request; the routes serve hosts: web.example.com; paths: /*, /healthz',
  );
});
