/** The shared flow scenarios (scenarios.ts) against the loopback Gitea, through bin/rollgen pr runs as a Gitea Actions job. */
import { GiteaHarness } from './gitea-harness';
import { runScenarios, serveAnalysis } from './scenarios';

// Each scenario starts rollgen eight to twelve times against a git remote; the shared machine is slow.
jest.setTimeout(300_000);

serveAnalysis();

let last: GiteaHarness | undefined;
runScenarios(() => (last = new GiteaHarness()));
// The requests of every run, by route: what a Gitea operator's API log would show.
afterEach(() => {
  const lines = last?.runLog.map(
    (r, i) => `  run ${i + 1}: ${r.requests.length} requests, ${r.pushes} push(es): ${r.requests.join(', ')}`,
  );
  if (lines) process.stdout.write(`gitea runs:\n${lines.join('\n')}\n`);
});
