/**
 * A web metric that answers with a redirect is followed as Argo's provider (Go's http.Client)
 * follows it: 301/302/303 become a GET without body, 307/308 repeat method and body, the 10th
 * redirect is an error; the metric's headers go only to its own host (host name, not port).
 * `rollgen analyze` against loopback servers; the endpoint reports what reached it.
 */
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

const KRUISE = path.join(__dirname, '../../examples/kruise-nginx/echoserver');
let main: http.Server;
let other: http.Server;
let port = 0;
let otherPort = 0;
const roots: string[] = [];

/** /final reports what reached it; /to?u=URL&s=STATUS redirects; /chain/N redirects N times before /final. */
function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const url = new URL(req.url!, 'http://x');
    const redirect = (to: string, status = 302) => {
      res.writeHead(status, { location: to });
      res.end();
    };
    if (url.pathname === '/to') return redirect(url.searchParams.get('u')!, Number(url.searchParams.get('s') ?? 302));
    const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
    if (chain) return redirect(Number(chain[1]) > 1 ? `/chain/${Number(chain[1]) - 1}` : '/final');
    const { authorization = null, 'x-api-key': key = null } = req.headers;
    res.end(JSON.stringify({ got: { method: req.method, body, authorization, key } }));
  });
}

beforeAll(async () => {
  main = http.createServer(handler);
  other = http.createServer(handler);
  await new Promise<void>((r) => main.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  port = (main.address() as AddressInfo).port;
  otherPort = (other.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => main.close(r));
  await new Promise((r) => other.close(r));
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

const to = (url: string, status = 302) => `/to?u=${encodeURIComponent(url)}&s=${status}`;

/** `rollgen analyze` of a Kruise app whose step 1 is analysed by a web metric at `pathname`; its one measurement. */
async function measureAt(
  pathname: string,
  method = 'GET',
): Promise<{ phase: string; value?: string; message?: string }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-redirects-'));
  roots.push(root);
  fs.cpSync(KRUISE, path.join(root, 'apps/web'), { recursive: true });
  fs.writeFileSync(
    path.join(root, 'apps/web/analysis.yaml'),
    `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata: {name: probe}
spec:
  metrics:
    - name: probe
      successCondition: "true"
      provider:
        web:
          url: "http://127.0.0.1:${port}${pathname}"
          method: ${method}
${method === 'POST' ? '          body: "q=1"\n' : ''}          headers:
            - {key: Authorization, value: Bearer s3cret}
            - {key: X-Api-Key, value: k3y}
          jsonPath: "{$.got}"
`,
  );
  fs.writeFileSync(
    path.join(root, 'rollgen.yaml'),
    'apps:\n  - source: apps/web\n    output: deploy/web\n    analysis:\n      steps:\n        - step: 1\n          templates: [{templateName: probe}]\n',
  );
  const r = await runCli(['analyze', 'web', '--step', '1', '--no-wait', '--json'], root);
  return JSON.parse(r.stdout).outcomes[0].record.metrics[0].measurements[0];
}

const got = (m: { value?: string }) => JSON.parse(m.value!);
const WITH_HEADERS = { authorization: 'Bearer s3cret', key: 'k3y' };
const WITHOUT_HEADERS = { authorization: null, key: null };

test('a 302 to another path of the same host is followed with the headers', async () => {
  const m = await measureAt(to('/final'));
  expect(m.phase).toBe('Successful');
  expect(got(m)).toEqual({ method: 'GET', body: '', ...WITH_HEADERS });
});

test('the host is its name, as Go judges it: another port of the same host keeps the headers', async () => {
  expect(got(await measureAt(to(`http://127.0.0.1:${otherPort}/final`)))).toMatchObject(WITH_HEADERS);
});

test('a redirect that leaves the host drops the headers, also for the rest of the chain', async () => {
  expect(got(await measureAt(to(`http://localhost:${port}/final`)))).toMatchObject(WITHOUT_HEADERS);
  // Away and back: once they left, the headers stay off (as Go since 1.23.5).
  const back = to(`http://localhost:${port}${to(`http://127.0.0.1:${port}/final`)}`);
  expect(got(await measureAt(back))).toMatchObject(WITHOUT_HEADERS);
});

test('303 turns a POST into a GET without body; 307 and 308 repeat the POST with its body', async () => {
  expect(got(await measureAt(to('/final', 303), 'POST'))).toMatchObject({ method: 'GET', body: '' });
  expect(got(await measureAt(to('/final', 307), 'POST'))).toMatchObject({ method: 'POST', body: 'q=1' });
  expect(got(await measureAt(to('/final', 308), 'POST'))).toMatchObject({ method: 'POST', body: 'q=1' });
});

test("9 redirects are followed; the 10th is an Error measurement naming the limit and the chain, as Go's", async () => {
  expect((await measureAt('/chain/9')).phase).toBe('Successful');
  expect(await measureAt('/chain/11')).toMatchObject({
    phase: 'Error',
    message: expect.stringMatching(/^stopped after 10 redirects: /),
  });
  const m = await measureAt('/chain/10');
  expect(m.phase).toBe('Error');
  expect(m.message).toMatch(
    new RegExp(
      `^stopped after 10 redirects: http://127\\.0\\.0\\.1:${port}/chain/10 -> .*/chain/1 -> http://127\\.0\\.0\\.1:${port}/final$`,
    ),
  );
});

test('a redirect without Location is the answer itself: an error, as before', async () => {
  const m = await measureAt('/to?s=302&u=');
  expect(m).toMatchObject({ phase: 'Error', message: 'received non 2xx response code: 302' });
});
