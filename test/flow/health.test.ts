/** judgeHealth: which statuses and check runs, on which of the commits carrying a step, decide. */
import { CommitSignals, judgeHealth } from '../../src/flow/health';
import type { CheckRun, CommitStatus } from '../../src/scm/types';

const policy = { statuses: ['kustomization/{a,b}/*'], checkRuns: ['smoke *'] };
const st = (context: string, state: CommitStatus['state'], at = '2026-03-01T10:00:00Z'): CommitStatus => ({
  context,
  state,
  updatedAt: at,
});
const run = (id: number, name: string, conclusion: CheckRun['conclusion'], at = '2026-03-01T10:00:00Z'): CheckRun => ({
  id,
  name,
  status: conclusion ? 'completed' : 'in_progress',
  conclusion,
  ...(conclusion ? { completedAt: at } : {}),
});
const commit = (sha: string, statuses: CommitStatus[], checkRuns: CheckRun[] = []): CommitSignals => ({
  sha,
  statuses,
  checkRuns,
});

test('every glob needs an ended success; healthy since the last of them', () => {
  const h = judgeHealth(policy, [
    commit('head', [st('kustomization/a/1f2e', 'success', '2026-03-01T10:05:00Z')], [run(1, 'smoke a', 'neutral')]),
  ]);
  expect(h).toEqual({ state: 'healthy', since: new Date('2026-03-01T10:05:00Z'), sha: 'head' });
});

test('a glob with nothing matching, or only pending or running, is awaited by name', () => {
  const h = judgeHealth(policy, [
    commit('head', [st('kustomization/a/1f2e', 'pending'), st('other', 'success')], [run(1, 'smoke a', null)]),
  ]);
  expect(h).toEqual({ state: 'waiting', awaited: ['status kustomization/{a,b}/*', 'check run smoke *'] });
});

test('a pending result on a newer commit does not hide the ended one on the older commit carrying the same step', () => {
  const h = judgeHealth(policy, [
    commit('head', [st('kustomization/a/1f2e', 'pending')], [run(3, 'smoke a', 'success')]),
    commit('landing', [st('kustomization/a/1f2e', 'error')]),
  ]);
  expect(h).toMatchObject({ state: 'failed', sha: 'landing', reasons: ['status kustomization/a/1f2e is error'] });
});

test('the newest commit with an answer wins over an older failure; a re-run check counts only its latest run', () => {
  const h = judgeHealth(policy, [
    commit(
      'head',
      [st('kustomization/b/1f2e', 'success')],
      [run(5, 'smoke a', 'failure'), run(7, 'smoke a', 'success')],
    ),
    commit('landing', [st('kustomization/b/1f2e', 'failure')]),
  ]);
  expect(h.state).toBe('healthy');
});

test('any failing check-run conclusion fails the step, naming it', () => {
  const h = judgeHealth({ statuses: [], checkRuns: ['smoke *'] }, [
    commit('head', [], [run(1, 'smoke a', 'timed_out')]),
  ]);
  expect(h).toMatchObject({ state: 'failed', reasons: ['check run smoke a concluded timed_out'] });
});
