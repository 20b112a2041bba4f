// Jest runs the longest test files first so no worker idles at the end of a run; it knows which are
// long only from its cache of earlier runs, and a clean clone (CI) has none: it then goes by file
// size, and short files that run long (a whole rollout per golden case, processes that wait on
// GitHub's pacing) started last and ran alone. Without a cached time, these files get the time
// they took in one run of the whole suite (`jest --json`, seconds, 2 workers on a loaded machine,
// session 9: only the order matters); the rest follow by size, as before.
const Sequencer = require('@jest/test-sequencer').default;
const path = require('path');

const MEASURED = {
  'every-provider-rollout.test.ts': 32,
  'output-crash.test.ts': 21,
  'ping-pong.test.ts': 10,
  'io/yaml-pool.test.ts': 8,
  'flow/pr-analysis-e2e.test.ts': 8,
  'flow/pr-aws-verify.test.ts': 8,
  'flux-kustomizations.test.ts': 8,
  'golden.test.ts': 7,
  'build-stamp.test.ts': 6,
  'github/octokit-client.test.ts': 5,
  'flow/pr-scenarios.test.ts': 5,
  'flow/pr-blue-green-analysis.test.ts': 5,
  'yaml-worker-run.test.ts': 5,
  'flow/pr-analysis-web.test.ts': 5,
  'pr-bodies.test.ts': 4,
  'safety/alb-orders-over-time.test.ts': 4,
  'examples.test.ts': 4,
  'github/action-pr.test.ts': 4,
  'flow/pr-health.test.ts': 4,
  'safety/status-loss.test.ts': 4,
  'status.test.ts': 4,
  'flow/pr-health-argocd.test.ts': 4,
  'flow/pr-e2e.test.ts': 4,
  'gateway-api-lifecycle.test.ts': 4,
  // Small files that wait (on npm, GitHub's back-off): by size they would start last.
  'package-install.test.ts': 5,
  'github/octokit-bounds.test.ts': 4,
};

class LongestFirst extends Sequencer {
  sort(tests) {
    const size = (t) => t.context.hasteFS.getSize(t.path) ?? 0;
    const known = (t) => {
      const measured = MEASURED[path.relative(path.join(t.context.config.rootDir, 'test'), t.path)];
      return this.time(t) ?? (measured === undefined ? undefined : measured * 1000); // jest's cache holds ms
    };
    return [...tests].sort((a, b) => {
      const [failedA, failedB] = [this.hasFailed(a), this.hasFailed(b)];
      if (failedA !== failedB) return failedA ? -1 : 1;
      const [ta, tb] = [known(a), known(b)];
      if ((ta === undefined) !== (tb === undefined)) return ta === undefined ? 1 : -1;
      if (ta !== undefined && tb !== undefined) return tb - ta;
      return size(b) - size(a);
    });
  }
}

module.exports = LongestFirst;
