import { measure } from '../../../src/io/metrics/measure';
import { KayentaProvider } from '../../../src/analysis/types';
import { metricSpec } from '../../helpers/analysis';
import { Seen, VendorServer, exampleAt, rollgenWith, startVendor } from '../../helpers/vendor-server';

const NOW = new Date('2026-03-01T12:00:00Z');

/** A Kayenta standing in on loopback: canary configs by application, executions that complete after `polls` reads. */
function kayenta(score: number, polls = 1) {
  let reads = 0;
  return (r: Seen) => {
    const url = new URL(r.url, 'http://x');
    if (r.method === 'GET' && url.pathname === '/canaryConfig')
      return {
        json: [
          { id: 'cfg-other', name: 'other' },
          { id: 'cfg-42', name: 'guestbook-canary', applications: ['guestbook'] },
        ],
      };
    if (r.method === 'POST' && url.pathname === '/canary/cfg-42') return { json: { canaryExecutionId: 'exec-7' } };
    if (r.method === 'GET' && url.pathname === '/canary/exec-7') {
      reads++;
      return reads < polls
        ? { json: { complete: false, status: 'running' } }
        : {
            json: {
              complete: true,
              status: 'succeeded',
              result: { judgeResult: { score: { score, classification: 'Pass' } } },
            },
          };
    }
    return { status: 404, json: { message: 'not found' } };
  };
}

let server: VendorServer;
beforeAll(async () => {
  server = await startVendor(kayenta(100));
});
afterAll(() => server.close());
beforeEach(() => server.seen.splice(0));

function metric(over: Partial<KayentaProvider> = {}) {
  const detail = (track: string) => ({
    scope: `app=guestbook and rollgen.dev/track=${track}`,
    region: 'us-west-2',
    step: 60,
  });
  const provider: KayentaProvider = {
    kind: 'kayenta',
    address: server.url,
    application: 'guestbook',
    canaryConfigName: 'guestbook-canary',
    metricsAccountName: 'wavefront-prod',
    configurationAccountName: 'intuit-kayenta',
    storageAccountName: 'intuit-storage',
    threshold: { pass: 90, marginal: 75 },
    scopes: [{ name: 'default', control: detail('stable'), experiment: detail('canary') }],
    lookback: false,
    timeoutSeconds: 300,
    secretArgs: [],
    ...over,
  };
  return metricSpec({ provider, interval: 300 });
}

const sleeps: number[] = [];
const options = { env: {}, now: () => NOW, sleep: async (ms: number) => void sleeps.push(ms) };

describe('Kayenta as Argo drives it, against a loopback Kayenta', () => {
  test('config looked up by name, an execution started over the scopes, polled every 15 s until complete', async () => {
    server.answer = kayenta(95, 3);
    sleeps.splice(0);
    expect(await measure(metric(), options)).toMatchObject({ phase: 'Successful', value: '95' });
    expect(sleeps).toEqual([15000, 15000]);
    const [lookup, start, ...polls] = server.seen;
    expect(lookup.url).toBe('/canaryConfig?application=guestbook&configurationAccountName=intuit-storage');
    expect([start.method, start.url]).toEqual([
      'POST',
      '/canary/cfg-42?application=guestbook&metricsAccountName=wavefront-prod&configurationAccountName=intuit-kayenta&storageAccountName=intuit-storage',
    ]);
    const window = { start: '2026-03-01T11:55:00Z', end: '2026-03-01T12:00:00Z' };
    expect(JSON.parse(start.body)).toEqual({
      scopes: {
        default: {
          controlScope: {
            scope: 'app=guestbook and rollgen.dev/track=stable',
            location: 'us-west-2',
            step: 60,
            ...window,
          },
          experimentScope: {
            scope: 'app=guestbook and rollgen.dev/track=canary',
            location: 'us-west-2',
            step: 60,
            ...window,
          },
        },
      },
      thresholds: { pass: 90, marginal: 75 },
    });
    expect(polls.map((p) => p.url)).toEqual(Array(3).fill('/canary/exec-7'));
  });

  test('the score against the thresholds is the phase: marginal is Inconclusive, below it Failed', async () => {
    server.answer = kayenta(80);
    expect(await measure(metric(), options)).toMatchObject({ phase: 'Inconclusive', value: '80' });
    server.answer = kayenta(40);
    expect(await measure(metric(), options)).toMatchObject({ phase: 'Failed', value: '40' });
  });

  test('lookback judges from the start of the analysis; an unknown config or an endless execution is an Error', async () => {
    server.answer = kayenta(100);
    await measure(metric({ lookback: true }), { ...options, analysisStartedAt: '2026-03-01T11:00:00.000Z' });
    expect(JSON.parse(server.seen[1].body).scopes.default.controlScope.start).toBe('2026-03-01T11:00:00Z');
    expect(await measure(metric({ canaryConfigName: 'nope' }), options)).toMatchObject({
      phase: 'Error',
      message: 'Canary config not found',
    });
    server.answer = kayenta(100, Infinity);
    const slow = await measure(metric({ timeoutSeconds: 40 }), options);
    expect(slow).toMatchObject({ phase: 'Error', message: 'canary execution exec-7 not complete within 40s' });
  });
});

describe('rollgen analyze has Kayenta judge the example', () => {
  test('a passing score passes step 1; a low one fails it (exit 1); the scopes name the track values', async () => {
    const dir = exampleAt('kayenta', /http:\/\/kayenta\.spinnaker:8090/, server.url);
    server.answer = kayenta(96);
    const ok = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], {});
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/mann-whitney \(kayenta\): Successful/);
    const scopes = JSON.parse(server.seen.find((s) => s.method === 'POST')!.body).scopes.default;
    expect([scopes.controlScope.scope, scopes.experimentScope.scope]).toEqual([
      'app=guestbook and rollgen.dev/track=stable',
      'app=guestbook and rollgen.dev/track=canary',
    ]);
    server.answer = kayenta(10);
    const bad = await rollgenWith(['analyze', dir, '--step', '1', '--no-wait'], {});
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/mann-whitney \(kayenta\): Failed/);
  });
});
