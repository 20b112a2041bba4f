import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Seen, VendorServer, rollgenWith, startVendor } from '../../helpers/vendor-server';

const FIXTURE = path.join(__dirname, '../fixtures/argo');
const SECRET = 'client/s3cret';

/** An Argo web metric behind OAuth2 client credentials, the client secret from a Kubernetes Secret. */
const template = (url: string, extraAuth = '') => `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: success-rate
spec:
  args:
    - name: service-name
    - name: client-secret
      valueFrom:
        secretKeyRef: {name: metrics-oauth, key: client-secret}
  metrics:
    - name: success-rate
      successCondition: result >= 0.95
      provider:
        web:
          url: ${url}/api/health/{{args.service-name}}
          jsonPath: "{$.rate}"
          headers:
            - key: X-Tenant
              value: team-a
          authentication:${extraAuth}
            oauth2:
              tokenUrl: ${url}/oauth/token
              clientId: rollgen
              clientSecret: "{{args.client-secret}}"
              scopes: [metrics:read]
`;

function appWith(templates: string): { dir: string; text: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-web-auth-'));
  for (const f of fs.readdirSync(FIXTURE)) fs.copyFileSync(path.join(FIXTURE, f), path.join(dir, f));
  // The Rollout's background analysis (error-rate) stays as the fixture has it.
  const background = fs.readFileSync(path.join(FIXTURE, 'analysis.yaml'), 'utf8').split('\n---\n')[1];
  fs.writeFileSync(path.join(dir, 'analysis.yaml'), `${templates}---\n${background}`);
  return { dir, text: templates };
}

const form = (r: Seen) => Object.fromEntries(new URLSearchParams(r.body));

let server: VendorServer;
let rate = 0.99;
beforeAll(async () => {
  server = await startVendor((r) => {
    if (r.url === '/oauth/token') {
      const ok =
        r.headers.authorization === `Basic ${Buffer.from('rollgen:client%2Fs3cret').toString('base64')}` &&
        form(r).grant_type === 'client_credentials' &&
        form(r).scope === 'metrics:read';
      return ok ? { json: { access_token: 'tok-web', token_type: 'Bearer' } } : { status: 401, json: {} };
    }
    return r.headers.authorization === 'Bearer tok-web' ? { json: { rate } } : { status: 401, json: {} };
  });
});
afterAll(() => server.close());
beforeEach(() => server.seen.splice(0));

describe('web authentication: oauth2 client credentials, as Argo web provider uses them', () => {
  test('rollgen analyze fetches a token with the secret arg, then queries with it as a Bearer token', async () => {
    const { dir } = appWith(template(server.url));
    const env = { ROLLGEN_ARG_CLIENT_SECRET: SECRET };
    const ok = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], env, dir);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/success-rate \(web\): Successful/);
    expect(server.seen.map((r) => r.url)).toEqual(['/oauth/token', '/api/health/echoserver']);
    expect(server.seen[1].headers['x-tenant']).toBe('team-a');
    rate = 0.5;
    const bad = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], env, dir);
    rate = 0.99;
    expect(bad.code).toBe(1);
    const refused = await rollgenWith(
      ['analyze', dir, '--step', '1', '--no-wait'],
      { ROLLGEN_ARG_CLIENT_SECRET: 'wrong-secret' },
      dir,
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/oauth2: cannot fetch token from .*\/oauth\/token: HTTP 401/);
    for (const r of [ok, bad, refused]) expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  test('basicAuth and sigv4, which Argo web provider ignores, are warned at their field; oauth2 still applies', async () => {
    const extra = '\n            basicAuth: {username: u, password: p}\n            sigv4: {region: us-west-2}';
    const { dir, text } = appWith(template(server.url, extra));
    const line = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const r = await rollgenWith(['validate', '.'], {}, dir);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `analysis.yaml:${line('basicAuth:')}:24: warning: web authentication.basicAuth is not used: Argo's web provider authenticates only with oauth2`,
    );
    expect(r.stderr).toContain(`analysis.yaml:${line('sigv4:')}:20: warning: web authentication.sigv4 is not used`);
    const measured = await rollgenWith(
      ['analyze', dir, '--step', '1', '--no-wait'],
      { ROLLGEN_ARG_CLIENT_SECRET: SECRET },
      dir,
    );
    expect(measured.code).toBe(0);
    expect(server.seen.at(-1)?.headers.authorization).toBe('Bearer tok-web');
  });

  test('oauth2 without clientSecret is refused at the field, as Argo refuses it', async () => {
    const { dir, text } = appWith(
      template(server.url).replace('              clientSecret: "{{args.client-secret}}"\n', ''),
    );
    const r = await rollgenWith(['validate', '.'], {}, dir);
    expect(r.code).toBe(2);
    const at = text.split('\n').findIndex((l) => l.includes('tokenUrl:')) + 1;
    expect(r.stderr).toContain(`analysis.yaml:${at}:15: web provider needs authentication.oauth2.clientSecret`);
  });
});
