// Jest runs the longest test files first so no worker idles at the end of a run; it knows which are
// long only from its cache of earlier runs, and a clean clone (CI) has none: it then goes by file
// size, and short files that run long (a whole rollout per golden case, processes that wait on
// GitHub's pacing) started last and ran alone. Without a cached time, these files get the time
// they took in one run of the whole suite (`jest --json`, seconds, 2 workers on a loaded machine,
// session 7: only the order matters); the rest follow by size, as before.
const Sequencer = require('@jest/test-sequencer').default;
const path = require('path');

const MEASURED = {
  'every-provider-rollout.test.ts': 24,
  'flow/pr-scenarios.test.ts': 12,
  'output-crash.test.ts': 11,
  'flow/pr-analysis-e2e.test.ts': 11,
  'github/action-pr.test.ts': 8,
  'github/pr-concurrent.test.ts': 8,
  'flow/pr-blue-green-analysis.test.ts': 7,
  'flow/pr-analysis-web.test.ts': 6,
  'flow/pr-full-link.test.ts': 5,
  'safety/status-loss.test.ts': 5,
  'github/octokit-client.test.ts': 5,
  'flow/pr-health.test.ts': 5,
  'flow/pr-e2e.test.ts': 5,
  'flow/pr-two-commits.test.ts': 5,
  'status.test.ts': 5,
  'flow/pr-offline.test.ts': 5,
  'output-json.test.ts': 5,
  'flux-kustomizations.test.ts': 4,
  'ping-pong.test.ts': 4,
  'flow/pr-health-argocd.test.ts': 4,
  'safety/sources.test.ts': 4,
  // Small files that wait (on the validator compiler, npm, GitHub's back-off): by size they would start last.
  'spec/k8s-schemas.test.ts': 8,
  'package-install.test.ts': 4,
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
