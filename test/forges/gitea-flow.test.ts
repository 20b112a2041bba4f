/** The shared flow scenarios (scenarios.ts) against the loopback Gitea, through bin/rollgen pr runs as a Gitea Actions job. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GiteaHarness } from './gitea-harness';
import { analysisServer, runScenarios } from './scenarios';

// Each scenario starts rollgen eight to twelve times against a git remote; the shared machine is slow.
jest.setTimeout(300_000);

let server: http.Server;
beforeAll(async () => {
  server = http.createServer((_req, res) => res.end(JSON.stringify({ p99: analysisServer.p99 })));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  analysisServer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/latency`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

let last: GiteaHarness | undefined;
runScenarios(() => (last = new GiteaHarness()));
// The requests of every run, by route: what a Gitea operator's API log would show.
afterEach(() => {
  const lines = last?.runLog.map(
    (r, i) => `  run ${i + 1}: ${r.requests.length} requests, ${r.pushes} push(es): ${r.requests.join(', ')}`,
  );
  if (lines) process.stdout.write(`gitea runs:\n${lines.join('\n')}\n`);
});
