/** The shared flow scenarios (scenarios.ts) against the loopback GitLab (gitlab-server.ts), through bin/rollgen pr runs. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitLabHarness } from './gitlab-harness';
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

runScenarios(() => new GitLabHarness());
