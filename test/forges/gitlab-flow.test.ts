/** The shared flow scenarios (scenarios.ts) against the loopback GitLab (gitlab-server.ts), through bin/rollgen pr runs. */
import { GitLabHarness } from './gitlab-harness';
import { runScenarios, serveAnalysis } from './scenarios';

// Each scenario starts rollgen eight to twelve times against a git remote; the shared machine is slow.
jest.setTimeout(300_000);

serveAnalysis();

runScenarios(() => new GitLabHarness());
