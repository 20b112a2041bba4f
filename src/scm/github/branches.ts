import { ScmError } from '../../errors';
import type { BranchWrite, CommitRequest } from '../types';
import { buildCommits } from './local-commits';
import { PushTarget, RefUpdate, pushAtomic, remoteHeads } from './push';

/**
 * Step branches written by git: every commit built in the checkout, then one atomic push of them
 * all, each branch leased to the head the caller saw. A refused push (no usable credentials, branch
 * protection on rollgen/*, a hook) switches the client to the REST API for the rest of the run,
 * said once. A lease that fails because the branch moved leaves that branch alone.
 */
export class GitBranchWriter {
  private refused = false;

  constructor(
    private readonly target: PushTarget,
    private readonly notice: (line: string) => void,
  ) {}

  /** False once a push was refused: branches then go through the REST API. */
  get active(): boolean {
    return !this.refused;
  }

  async write(reqs: readonly CommitRequest[]): Promise<BranchWrite[]> {
    const results = new Map<string, BranchWrite>();
    let shas: string[];
    try {
      shas = buildCommits(this.target.repo, reqs);
    } catch (e) {
      this.refuse(reqs, results, `could not commit in the checkout: ${e instanceof Error ? e.message : String(e)}`);
      return reqs.map((r) => results.get(r.branch)!);
    }
    // A branch already at the very commit (an identical rerun) needs no push.
    const updates: RefUpdate[] = [];
    reqs.forEach((r, i) => {
      if (r.expectedHead === shas[i]) results.set(r.branch, { branch: r.branch, sha: shas[i] });
      else updates.push({ branch: r.branch, sha: shas[i], expected: r.expectedHead });
    });
    await this.push(updates, results, true);
    return reqs.map((r) => results.get(r.branch)!);
  }

  private async push(updates: readonly RefUpdate[], results: Map<string, BranchWrite>, again: boolean): Promise<void> {
    if (updates.length === 0) return;
    const outcome = await pushAtomic(this.target, updates);
    const stale = updates.filter((u) => outcome.refs.get(u.branch) === 'stale');
    if (updates.every((u) => outcome.refs.get(u.branch) === 'pushed')) {
      for (const u of updates) results.set(u.branch, { branch: u.branch, sha: u.sha });
      return;
    }
    if (stale.length === 0 || !again) return this.refuse(updates, results, outcome.detail);
    // A failed lease: a concurrent run pushed this very commit (done); a branch left from an earlier PR
    // (expected absent, found without an open PR) is reset as the REST path resets it; otherwise it moved.
    const now = await remoteHeads(
      this.target,
      stale.map((u) => u.branch),
    ).catch(() => new Map<string, string>());
    const retry = updates.filter((u) => !stale.includes(u));
    for (const u of stale) {
      const at = now.get(u.branch);
      if (at === u.sha) results.set(u.branch, { branch: u.branch, sha: u.sha });
      else if (u.expected === null && at) retry.push({ ...u, expected: at });
      else results.set(u.branch, { branch: u.branch, error: moved(u, now) });
    }
    // The atomic push rejected the others with it: they go once more.
    await this.push(retry, results, false);
  }

  private refuse(
    updates: readonly { readonly branch: string }[],
    results: Map<string, BranchWrite>,
    detail: string,
  ): void {
    this.refused = true;
    const where = this.target.url;
    const why = detail.split('\n').filter(Boolean).slice(-3).join('; ') || 'no reason given';
    this.notice(
      `rollgen: git push to ${where} was refused (${why}); step branches go through GitHub's REST API for the rest of this run (3-4 more requests a branch). To push them: let actions/checkout persist its credentials (the default) or give the token contents: write, and do not protect rollgen/* branches.`,
    );
    for (const u of updates)
      results.set(u.branch, {
        branch: u.branch,
        error: new ScmError(`push branch ${u.branch}`, undefined, 'git push refused; write it by the REST API', {
          outcome: 'push-refused',
        }),
      });
  }
}

function moved(u: RefUpdate, now: ReadonlyMap<string, string>): ScmError {
  const at = now.get(u.branch);
  const saw = u.expected ? `at ${u.expected.slice(0, 12)}` : 'absent';
  return new ScmError(
    `push branch ${u.branch}`,
    undefined,
    `it moved since rollgen read it (saw it ${saw}, it is ${at ? `at ${at.slice(0, 12)}` : 'gone'}): left as it is; the next run reads it again`,
    { outcome: 'head-moved' },
  );
}
