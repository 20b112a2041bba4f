import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { measure } from '../../../src/io/metrics/measure';
import { credentialsOf } from '../../../src/analysis/credentials';
import { NewRelicProvider } from '../../../src/analysis/types';
import { condition, metricSpec } from '../../helpers/analysis';
import { VendorServer, rollgenWith, startVendor } from '../../helpers/vendor-server';

const KEY = 'NRAK-0123456789ABCDEF';
/** NerdGraph's answer to Argo's NRQL query: data.actor.account.nrql.results, one map per row. */
const rows = (results: unknown[]) => ({ json: { data: { actor: { account: { nrql: { results } } } } } });

let nr: VendorServer;
beforeAll(async () => {
  nr = await startVendor(() => rows([]));
});
afterAll(() => nr.close());
beforeEach(() => nr.seen.splice(0));

const NEEDS = [
  { key: 'personal-api-key', required: true, secret: true },
  { key: 'account-id', required: true, secret: false },
  { key: 'region', required: false, secret: false },
  { key: 'base-url-nerdgraph', required: false, secret: false },
];

function metric(query: string, success: string, profile = 'newrelic') {
  const provider: NewRelicProvider = {
    kind: 'newrelic',
    query,
    nrqlTimeout: 5,
    timeoutSeconds: 5,
    credentials: credentialsOf(profile, NEEDS),
    secretArgs: [],
  };
  return metricSpec({ provider, successCondition: condition(success) });
}

const env = () => ({
  ROLLGEN_SECRET_NEWRELIC_PERSONAL_API_KEY: KEY,
  ROLLGEN_SECRET_NEWRELIC_ACCOUNT_ID: '1234567',
  ROLLGEN_SECRET_NEWRELIC_BASE_URL_NERDGRAPH: `${nr.url}/graphql`,
});

const NRQL =
  "FROM Transaction SELECT percentage(count(*), WHERE httpResponseCode != 500) as successRate where appName = 'checkout'";

describe('New Relic against a loopback NerdGraph', () => {
  test('the GraphQL request Argo sends; one result row is a map', async () => {
    nr.answer = () => rows([{ successRate: 99.2 }]);
    expect(await measure(metric(NRQL, 'result.successRate >= 95'), { env: env() })).toMatchObject({
      phase: 'Successful',
      value: '{"successRate":99.2}',
    });
    const [req] = nr.seen;
    expect([req.method, req.url, req.headers['api-key'], req.headers['content-type']]).toEqual([
      'POST',
      '/graphql',
      KEY,
      'application/json',
    ]);
    const body = JSON.parse(req.body);
    expect(body.variables).toEqual({ accountId: 1234567, query: NRQL, timeout: 5 });
    expect(body.query).toMatch(
      /account\(id: \$accountId\) \{ nrql\(query: \$query, timeout: \$timeout\) \{ results \} \}/,
    );
  });

  test('several rows (FACET) are an array of maps; no row is an Error; a GraphQL error is the message', async () => {
    nr.answer = () =>
      rows([
        { facet: 'a', count: 3 },
        { facet: 'b', count: 40 },
      ]);
    expect(
      await measure(metric('SELECT count(*) FROM Transaction FACET appName', 'all(result, {#.count < 10})'), {
        env: env(),
      }),
    ).toMatchObject({
      phase: 'Failed',
      value: '[{"count":3,"facet":"a"},{"count":40,"facet":"b"}]',
    });
    nr.answer = () => rows([]);
    expect(await measure(metric(NRQL, 'result.successRate >= 95'), { env: env() })).toMatchObject({
      phase: 'Error',
      message: 'no results returned from NRQL query',
    });
    nr.answer = () => ({ json: { data: null, errors: [{ message: `NRQL Syntax Error for key ${KEY}` }] } });
    expect(await measure(metric('SELEC', 'true'), { env: env() })).toMatchObject({
      phase: 'Error',
      message: 'NRQL Syntax Error for key *****',
    });
  });

  test('a profile is another Secret: its keys are read from its own variables', async () => {
    const x = await measure(metric(NRQL, 'true', 'nr-eu'), { env: env() });
    expect(x.message).toBe(
      'credentials of Secret "nr-eu" not found: personal-api-key (set ROLLGEN_SECRET_NR_EU_PERSONAL_API_KEY), account-id (set ROLLGEN_SECRET_NR_EU_ACCOUNT_ID); name other variables in rollgen.yaml metricSecrets.nr-eu',
    );
    expect(nr.seen).toEqual([]);
  });
});

describe('rollgen analyze measures the New Relic example against the loopback NerdGraph', () => {
  test('with rollgen.yaml metricSecrets naming the variables: pass, then fail on a low success rate', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-newrelic-'));
    fs.cpSync(path.join(__dirname, '../../../examples/argo-analysis/newrelic'), path.join(root, 'apps/checkout'), {
      recursive: true,
    });
    fs.writeFileSync(
      path.join(root, 'rollgen.yaml'),
      [
        'metricSecrets:',
        '  newrelic:',
        '    personal-api-key: NEW_RELIC_API_KEY',
        '    account-id: NEW_RELIC_ACCOUNT_ID',
        '    base-url-nerdgraph: NEW_RELIC_NERDGRAPH',
        'apps:',
        '  - source: apps/checkout',
        '    output: deploy/checkout',
        '',
      ].join('\n'),
    );
    const vars = { NEW_RELIC_API_KEY: KEY, NEW_RELIC_ACCOUNT_ID: '42', NEW_RELIC_NERDGRAPH: `${nr.url}/graphql` };
    nr.answer = () => rows([{ successRate: 0.99 }]);
    const ok = await rollgenWith(['analyze', 'checkout', '--step', '1', '--no-wait'], vars, root);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/success-rate \(newrelic\): Successful/);
    expect(nr.seen).toHaveLength(3);
    expect(JSON.parse(nr.seen[0].body).variables).toEqual({
      accountId: 42,
      query: `${NRQL}\n`,
      timeout: 5,
    });
    nr.answer = () => rows([{ successRate: 0.5 }]);
    const bad = await rollgenWith(['analyze', 'checkout', '--step', '1', '--no-wait'], vars, root);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/success-rate \(newrelic\): Failed/);
    expect(bad.stdout + bad.stderr).not.toContain(KEY);
  });

  test('a metricSecrets value that is not a variable name (a pasted key) is refused at its line', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-newrelic-'));
    fs.cpSync(path.join(__dirname, '../../../examples/argo-analysis/newrelic'), path.join(root, 'apps/checkout'), {
      recursive: true,
    });
    fs.writeFileSync(
      path.join(root, 'rollgen.yaml'),
      `metricSecrets:\n  newrelic:\n    personal-api-key: ${KEY}\napps:\n  - source: apps/checkout\n    output: deploy/checkout\n`,
    );
    const r = await rollgenWith(['plan', 'checkout'], {}, root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^rollgen.yaml:3:23: metricSecrets.newrelic.personal-api-key must name an environment variable/m,
    );
    expect(r.stderr).not.toContain(KEY);
  });
});
