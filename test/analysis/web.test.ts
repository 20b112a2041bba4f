import * as http from 'http';
import { AddressInfo } from 'net';
import { measure } from '../../src/io/metrics/measure';
import { newRecord, readRecord } from '../../src/analysis/record';
import { runToEnd, takeDue } from '../../src/io/metrics/run';
import { MetricSpec, ProviderSpec } from '../../src/analysis/types';
import { analysisSpec, condition, metricSpec } from '../helpers/analysis';

/** A loopback metrics endpoint: answers by path, and records what it was sent. */
let server: http.Server;
let base: string;
const seen: { method?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, body });
      if (req.url === '/json') return res.end(JSON.stringify({ data: { ok: true, rate: 0.02, items: [{ v: 5 }] } }));
      if (req.url === '/text') return res.end('healthy');
      if (req.url === '/go') return res.end('{"data": {"z": -0, "b": [1e-7, 1e21, 0.7999999999999999], "a": "<b>&"}}');
      if (req.url === '/echo') return res.end(JSON.stringify({ got: JSON.parse(body) }));
      if (req.url === '/slow') return; // never answers
      res.statusCode = 503;
      res.end('down');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function web(over: Partial<Extract<ProviderSpec, { kind: 'web' }>>, success?: string): MetricSpec {
  const provider = metricSpec().provider as Extract<ProviderSpec, { kind: 'web' }>;
  return metricSpec({
    ...(success ? { successCondition: condition(success) } : {}),
    provider: { ...provider, url: `${base}/json`, timeoutSeconds: 2, ...over },
  });
}

describe('web provider against a loopback server', () => {
  test('jsonPath picks one value for the condition', async () => {
    expect(await measure(web({ jsonPath: '{$.data.ok}' }, 'result == true'))).toMatchObject({
      phase: 'Successful',
      value: 'true',
    });
    expect(await measure(web({ jsonPath: '{$.data.rate}' }, 'result < 0.01'))).toMatchObject({
      phase: 'Failed',
      value: '0.02',
    });
    expect(await measure(web({ jsonPath: '{.data.items[0].v}' }, 'result == 5'))).toMatchObject({
      phase: 'Successful',
    });
  });

  test('without jsonPath the whole JSON body is the result; a body that is not JSON is a string', async () => {
    expect((await measure(web({}, 'result.data.ok'))).phase).toBe('Successful');
    expect(await measure(web({ url: `${base}/text` }, 'result == "healthy"'))).toMatchObject({
      phase: 'Successful',
      value: 'healthy',
    });
  });

  test("the value is written as Argo writes it (Go's json.Marshal): keys sorted, HTML escaped, -0 kept", async () => {
    expect(await measure(web({ url: `${base}/go`, jsonPath: '{$.data}' }, 'result.z == 0'))).toMatchObject({
      phase: 'Successful',
      value: '{"a":"\\u003cb\\u003e\\u0026","b":[1e-7,1e+21,0.7999999999999999],"z":-0}',
    });
  });

  test('a non-2xx answer, a missing path and a timeout are Error measurements with the reason', async () => {
    expect(await measure(web({ url: `${base}/down` }, 'true'))).toMatchObject({
      phase: 'Error',
      message: 'received non 2xx response code: 503',
    });
    expect((await measure(web({ jsonPath: '{$.data.nope}' }, 'true'))).message).toMatch(
      /could not find JSONPath in body: "nope"/,
    );
    expect((await measure(web({ url: `${base}/slow` }, 'true'), { timeoutMs: 200 })).message).toMatch(
      /no response within 0.2s/,
    );
  });

  test('POST sends the body and headers; secret args are filled from the environment', async () => {
    seen.length = 0;
    const metric = web(
      {
        url: `${base}/echo`,
        method: 'POST',
        body: '{"q":"{{args.token}}"}',
        headers: [{ key: 'Authorization', value: 'Bearer {{args.token}}' }],
        secretArgs: [{ name: 'token', env: 'ROLLGEN_ARG_TOKEN' }],
        jsonPath: '{$.got.q}',
      },
      'result == "s3cret"',
    );
    const m = await measure(metric, { env: { ROLLGEN_ARG_TOKEN: 's3cret' } });
    expect(m.phase).toBe('Successful');
    // The value went through a secret: the record (posted on GitHub) shows it redacted.
    expect(m.value).toBe('"*****"');
    expect(seen[0]).toMatchObject({ method: 'POST', headers: { authorization: 'Bearer s3cret' } });
    const missing = await measure(metric, { env: {} });
    expect(missing).toMatchObject({
      phase: 'Error',
      message: 'secret arg "token" needs the environment variable ROLLGEN_ARG_TOKEN',
    });
  });
});

describe('runs that continue a stored record (what the scheduled Action does)', () => {
  // Built in each test: the server's address is known only after beforeAll.
  const specOf = () => analysisSpec({ ...web({ jsonPath: '{$.data.ok}' }, 'result == true'), count: 3, interval: 60 });
  const at = (s: number) => () => new Date(Date.UTC(2026, 0, 1) + s * 1000);

  test('each run takes only what is due; a rerun at the same time measures nothing', async () => {
    const spec = specOf();
    let stored: unknown = newRecord(spec, 'app/step-1', at(0)());
    const run = async (s: number) => {
      const round = await takeDue(spec, readRecord(JSON.parse(JSON.stringify(stored))), { now: at(s) });
      stored = round.record;
      return [round.taken, round.verdict.phase, round.next];
    };
    expect(await run(0)).toEqual([1, 'Running', at(60)().toISOString()]);
    expect(await run(0)).toEqual([0, 'Running', at(60)().toISOString()]);
    expect(await run(30)).toEqual([0, 'Running', at(60)().toISOString()]);
    expect(await run(61)).toEqual([1, 'Running', at(121)().toISOString()]);
    expect(await run(200)).toEqual([1, 'Successful', undefined]);
  });

  test('rollgen analyze waits out the interval between measurements', async () => {
    const spec = specOf();
    let clock = 0;
    const slept: number[] = [];
    const { record, verdict } = await runToEnd(spec, {
      key: 'k',
      now: () => new Date(Date.UTC(2026, 0, 1) + clock),
      wait: true,
      background: false,
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
    });
    expect(verdict.phase).toBe('Successful');
    expect(record.metrics[0].count).toBe(3);
    expect(slept).toEqual([60000, 60000]);
  });
  // The unbounded metric's next interval was waited out although nothing was left to measure.
  test('rollgen analyze does not wait once every bounded metric is done and each unbounded one measured', async () => {
    const once = { ...web({ jsonPath: '{$.data.ok}' }, 'result == true'), name: 'once' };
    const background = { ...web({ jsonPath: '{$.data.ok}' }, 'result == true'), name: 'background', interval: 300 };
    const slept: number[] = [];
    const { verdict } = await runToEnd(analysisSpec(once, background), {
      key: 'k',
      now: () => at(slept.reduce((a, b) => a + b, 0) / 1000)(),
      wait: true,
      background: true,
      sleep: async (ms) => void slept.push(ms),
    });
    expect(verdict.phase).toBe('Successful');
    expect(slept).toEqual([]);
  });
});
