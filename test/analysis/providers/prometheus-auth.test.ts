import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { measure } from '../../../src/io/metrics/measure';
import { MetricSpec, MetricAuth } from '../../../src/analysis/types';
import { condition, metricSpec } from '../../helpers/analysis';
import { checkSigV4 } from '../../helpers/sigv4-check';
import { Seen, VendorServer, rollgenWith, startVendor } from '../../helpers/vendor-server';
import { FakeSts, ROLE_CREDENTIALS } from '../../helpers/fake-sts';

/** Prometheus' instant-query answer: one sample of the success rate. */
const vector = (v: string) => ({
  json: { status: 'success', data: { resultType: 'vector', result: [{ metric: {}, value: [1772366400, v] }] } },
});
const denied = { status: 401, json: { status: 'error', error: 'unauthorized' } };

const BASE_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const ROLE = 'arn:aws:iam::123456789012:role/amp-reader';

let server: VendorServer;
let sts: FakeSts;
beforeAll(async () => {
  server = await startVendor(() => denied);
  sts = await FakeSts.start(BASE_SECRET);
});
afterAll(async () => {
  await server.close();
  await sts.close();
});
beforeEach(() => {
  server.seen.splice(0);
  sts.assumed.splice(0);
});

/** The workspace answers only a query signed with the role's temporary credentials. */
const roleSigned = (r: Seen) => {
  try {
    const ok = checkSigV4(r, ROLE_CREDENTIALS.secretAccessKey).accessKey === ROLE_CREDENTIALS.accessKeyId;
    return ok && r.headers['x-amz-security-token'] === ROLE_CREDENTIALS.sessionToken;
  } catch {
    return false;
  }
};

function metric(path: string, authentication: MetricAuth, secret?: string): MetricSpec {
  return metricSpec({
    successCondition: condition('result[0] >= 0.95'),
    provider: {
      kind: 'prometheus',
      address: `${server.url}${path}`,
      query: 'sum(rate(http_requests_total{code!~"5.."}[5m])) / sum(rate(http_requests_total[5m]))',
      timeoutSeconds: 5,
      headers: [{ key: 'X-Scope-OrgID', value: 'team-a' }],
      insecure: false,
      authentication,
      secretArgs: secret ? [{ name: secret, env: `ROLLGEN_ARG_${secret.toUpperCase()}` }] : [],
    },
  });
}

const form = (r: Seen) => Object.fromEntries(new URLSearchParams(r.body));

describe('Prometheus authentication as Argo offers it, against a loopback Prometheus', () => {
  test('basicAuth: the password from a secret arg, sent as Basic auth with the custom headers', async () => {
    server.answer = (r) =>
      r.headers.authorization === `Basic ${Buffer.from('grafana:s3cret-pass').toString('base64')}`
        ? vector('0.99')
        : denied;
    const m = metric('', { basic: { username: 'grafana', password: '{{args.password}}' } }, 'password');
    expect(await measure(m, { env: { ROLLGEN_ARG_PASSWORD: 's3cret-pass' } })).toMatchObject({
      phase: 'Successful',
      value: '[0.99]',
    });
    expect(server.seen[0].headers['x-scope-orgid']).toBe('team-a');
    expect(form(server.seen[0]).query).toContain('http_requests_total');
  });

  test('oauth2 client credentials: a token from tokenUrl, then the query with it as a Bearer token', async () => {
    server.answer = (r) => {
      if (r.url === '/oauth/token') {
        const ok =
          r.headers.authorization === `Basic ${Buffer.from('rollgen:client%2Fsecret').toString('base64')}` &&
          form(r).grant_type === 'client_credentials' &&
          form(r).scope === 'metrics:read tenant:a';
        return ok
          ? { json: { access_token: 'tok-123', token_type: 'Bearer', expires_in: 3600 } }
          : { status: 401, json: { error: 'invalid_client' } };
      }
      return r.headers.authorization === 'Bearer tok-123' ? vector('0.5') : denied;
    };
    const auth = {
      oauth2: {
        tokenUrl: `${server.url}/oauth/token`,
        clientId: 'rollgen',
        clientSecret: '{{args.client-secret}}',
        scopes: ['metrics:read', 'tenant:a'],
      },
    };
    const env = { 'ROLLGEN_ARG_CLIENT-SECRET': 'client/secret' };
    expect(await measure(metric('', auth, 'client-secret'), { env })).toMatchObject({
      phase: 'Failed',
      value: '[0.5]',
    });
    expect(server.seen.map((r) => r.url)).toEqual(['/oauth/token', '/api/v1/query']);
    const refused = await measure(metric('', auth, 'client-secret'), { env: { 'ROLLGEN_ARG_CLIENT-SECRET': 'wrong' } });
    expect(refused).toMatchObject({
      phase: 'Error',
      message: `oauth2: cannot fetch token from ${server.url}/oauth/token: HTTP 401 invalid_client`,
    });
  });

  test('sigv4 (Amazon Managed Prometheus): the query is signed for service aps in the region', async () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    server.answer = () => vector('0.97');
    const m = metric('/workspaces/aps-workspaces/ws-1234', { sigv4: { region: 'us-west-2' } });
    const env = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: secret };
    expect(await measure(m, { env })).toMatchObject({ phase: 'Successful', value: '[0.97]' });
    const [req] = server.seen;
    expect(req.url).toBe('/workspaces/aps-workspaces/ws-1234/api/v1/query');
    expect(checkSigV4(req, secret)).toEqual({ accessKey: 'AKIDEXAMPLE', region: 'us-west-2', service: 'aps' });
    expect(String(req.headers.authorization)).toMatch(/SignedHeaders=[^,]*x-scope-orgid/);
  });
});

describe('sigv4 roleArn: the role is assumed through STS with the base credentials, the query signed as the role', () => {
  test('AssumeRole is signed with the environment keys; the query with the temporary credentials it returned', async () => {
    server.answer = (r) => (roleSigned(r) ? vector('0.98') : denied);
    const m = metric('/workspaces/aps-workspaces/ws-1234', { sigv4: { region: 'eu-west-1', roleArn: ROLE } });
    const env = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: BASE_SECRET, AWS_ENDPOINT_URL_STS: sts.url };
    expect(await measure(m, { env })).toMatchObject({ phase: 'Successful', value: '[0.98]' });
    expect(sts.assumed).toEqual([
      { roleArn: ROLE, sessionName: expect.stringMatching(/^rollgen-\d+$/), region: 'eu-west-1' },
    ]);
    expect([...sts.signedBy]).toContain('AKIDEXAMPLE');
    expect(checkSigV4(server.seen[0], ROLE_CREDENTIALS.secretAccessKey)).toEqual({
      accessKey: ROLE_CREDENTIALS.accessKeyId,
      region: 'eu-west-1',
      service: 'aps',
    });
  });

  test('a role STS refuses is an Error measurement naming the role, and no query is sent', async () => {
    sts.failure = { status: 403, code: 'AccessDenied' };
    try {
      const m = metric('/workspaces/aps-workspaces/ws-1234', { sigv4: { region: 'eu-west-1', roleArn: ROLE } });
      const env = {
        AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
        AWS_SECRET_ACCESS_KEY: BASE_SECRET,
        AWS_ENDPOINT_URL_STS: sts.url,
      };
      const r = await measure(m, { env });
      expect(r.phase).toBe('Error');
      expect(r.message).toContain(`sigv4: cannot assume role ${ROLE}: AccessDenied (fake)`);
      expect(server.seen).toHaveLength(0);
    } finally {
      sts.failure = undefined;
    }
  });

  test('rollgen analyze measures the example with a roleArn; no credential is printed', async () => {
    server.answer = (r) => (roleSigned(r) ? vector('0.99') : denied);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-amp-role-'));
    fs.cpSync(path.join(__dirname, '../../../examples/argo-analysis/amazon-prometheus'), root, { recursive: true });
    const file = path.join(root, 'analysis-templates.yaml');
    fs.writeFileSync(
      file,
      fs
        .readFileSync(file, 'utf8')
        .replace(/https:\/\/aps-workspaces[^\n]+/, `${server.url}/workspaces/aps-workspaces/ws-1234`)
        .replace('region: us-west-2', `region: us-west-2\n              roleArn: ${ROLE}`),
    );
    const env = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: BASE_SECRET, AWS_ENDPOINT_URL_STS: sts.url };
    const r = await rollgenWith(['analyze', root, '--step', '1', '--no-wait'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/success-rate \(prometheus\): Successful/);
    expect(server.seen).toHaveLength(3);
    expect(sts.assumed.map((a) => a.roleArn)).toEqual([ROLE, ROLE, ROLE]);
    for (const secret of [BASE_SECRET, ROLE_CREDENTIALS.secretAccessKey, ROLE_CREDENTIALS.sessionToken])
      expect(r.stdout + r.stderr).not.toContain(secret);
  });
});

describe('rollgen analyze signs the Amazon Managed Prometheus example', () => {
  test('the example measured through SigV4 against the loopback workspace passes, and fails on a low rate', async () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    server.answer = () => vector('0.99');
    const env = { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: secret };
    // The example with its workspace at the loopback server (the path keeps Argo's aps-workspaces marker).
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-amp-'));
    fs.cpSync(path.join(__dirname, '../../../examples/argo-analysis/amazon-prometheus'), root, { recursive: true });
    const file = path.join(root, 'analysis-templates.yaml');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      text.replace(/https:\/\/aps-workspaces[^\n]+/, `${server.url}/workspaces/aps-workspaces/ws-1234`),
    );
    const args = ['analyze', root, '--step', '1', '--no-wait'];
    const ok = await rollgenWith(args, env);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/success-rate \(prometheus\): Successful/);
    expect(server.seen).toHaveLength(3);
    expect(checkSigV4(server.seen[0], secret).service).toBe('aps');
    server.answer = () => vector('0.5');
    const bad = await rollgenWith(args, env);
    expect(bad.code).toBe(1);
    expect(bad.stdout + bad.stderr).not.toContain(secret);
  });
});
