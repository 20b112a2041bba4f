import * as fs from 'fs';
import * as os from 'os';
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

test('a request without a host does not match a host-restricted rule', async () => {
  // Two hosts: simulate picks no default host, so the request names none.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-apisix-hosts-'));
  try {
    fs.cpSync(SOURCE, path.join(dir, 'app'), { recursive: true });
    const file = path.join(dir, 'app', 'apisixroute.yaml');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace('hosts: [web.example.com]', 'hosts: [web.example.com, api.example.com]'));
    const r = await runCli(['simulate', 'app', '--step', '1', ...HEADERS], dir);
    expect(r.stdout).toContain('request: no host, path /');
    expect(r.stdout).toContain(
      'no route matches this request; the routes serve hosts: api.example.com, web.example.com',
    );
    const api = await runCli(['simulate', 'app', '--step', '1', ...HEADERS, '--host', 'API.example.com:8443'], dir);
    expect(api.stdout).toMatch(/100\.0% +service web-canary/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
