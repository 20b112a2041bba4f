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
    /** What happens next and what to do, said after the refusal (another forge says its own). */
    private readonly afterRefusal = GITHUB_AFTER_REFUSAL,
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
    await this.push(updates, results, 3);
    return reqs.map((r) => results.get(r.branch)!);
  }

  /** Pushes `updates`; refs that raced another push are looked at and pushed again, at most `tries` times in all. */
  private async push(updates: readonly RefUpdate[], results: Map<string, BranchWrite>, tries: number): Promise<void> {
    if (updates.length === 0) return;
    const outcome = await pushAtomic(this.target, updates);
    const status = (u: RefUpdate) => outcome.refs.get(u.branch);
    if (updates.every((u) => status(u) === 'pushed')) {
      for (const u of updates) results.set(u.branch, { branch: u.branch, sha: u.sha });
      return;
    }
    const stale = updates.filter((u) => status(u) === 'stale');
    if (stale.length === 0 || updates.some((u) => status(u) === 'rejected') || tries <= 1)
      return this.refuse(updates, results, outcome.detail);
    const now = await remoteHeads(
      this.target,
      stale.map((u) => u.branch),
    ).catch(() => new Map<string, string>());
    const retry = updates.filter((u) => !stale.includes(u));
    for (const u of stale) {
      const next = afterRace(u, now.get(u.branch));
      if (next === 'done') results.set(u.branch, { branch: u.branch, sha: u.sha });
      else if (next === 'moved') results.set(u.branch, { branch: u.branch, error: moved(u, now) });
      else retry.push(next);
    }
    // The atomic push held the others back with it: they go once more.
    await this.push(retry, results, tries - 1);
  }

  private refuse(
    updates: readonly { readonly branch: string }[],
    results: Map<string, BranchWrite>,
    detail: string,
  ): void {
    this.refused = true;
    const where = this.target.url;
    const why = detail.split('\n').filter(Boolean).slice(-3).join('; ') || 'no reason given';
    this.notice(`rollgen: git push to ${where} was refused (${why}); ${this.afterRefusal}`);
    for (const u of updates)
      results.set(u.branch, {
        branch: u.branch,
        error: new ScmError(`push branch ${u.branch}`, undefined, 'git push refused; write it by the REST API', {
          outcome: 'push-refused',
        }),
      });
  }
}

const GITHUB_AFTER_REFUSAL =
  "step branches go through GitHub's REST API for the rest of this run (3-4 more requests a branch). To push them: let actions/checkout persist its credentials (the default) or give the token contents: write, and do not protect rollgen/* branches.";

/**
 * A ref that raced: a concurrent run pushed this very commit (done); unchanged since (only the
 * other push's lock failed it) or to be moved whatever it holds: again; a branch left from an
 * earlier PR (expected absent, found without an open PR) is reset, as the REST path resets it;
 * otherwise someone moved it: left alone.
 */
function afterRace(u: RefUpdate, at: string | undefined): RefUpdate | 'done' | 'moved' {
  if (at === u.sha) return 'done';
  if (u.expected === undefined || at === (u.expected ?? undefined)) return u;
  if (u.expected === null && at) return { ...u, expected: at };
  return 'moved';
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

/**
 * A client's branch writes, the same on every forge: one push of them all while pushing works,
 * else each branch by the forge's REST API (`restWrite`, its sha), a failed branch being that
 * branch's result, not the end of the others. `commitToBranch` writes one branch and, when this
 * very push was the one refused, writes it again by REST.
 */
export function branchWrites(
  writer: GitBranchWriter | undefined,
  restWrite: (req: CommitRequest) => Promise<string>,
): {
  writeBranches(reqs: readonly CommitRequest[]): Promise<BranchWrite[]>;
  commitToBranch(req: CommitRequest): Promise<string>;
} {
  const writeBranches = async (reqs: readonly CommitRequest[]): Promise<BranchWrite[]> => {
    if (writer?.active) return writer.write(reqs);
    const out: BranchWrite[] = [];
    for (const req of reqs)
      out.push(
        await restWrite(req).then(
          (sha): BranchWrite => ({ branch: req.branch, sha }),
          (error: unknown): BranchWrite => {
            if (!(error instanceof ScmError)) throw error;
            return { branch: req.branch, error };
          },
        ),
      );
    return out;
  };
  const commitToBranch = async (req: CommitRequest): Promise<string> => {
    let [written] = await writeBranches([req]);
    if ('error' in written && written.error.outcome === 'push-refused') [written] = await writeBranches([req]);
    if ('error' in written) throw written.error;
    return written.sha;
  };
  return { writeBranches, commitToBranch };
}
