import { ScmError } from '../errors';
import type { PullRequestAction, PullRequestEvent } from '../app/report';
import { BranchWrite, MergeMethod, PullRequest, ScmClient } from '../scm/types';
import { parseBranch } from './branch';
import { Action, changedFields } from './decide';
import { parseMarker, withHead, withMarker } from './marker';
import { Proposal } from './proposal';
import { mergeUnlessMoved } from './merge';

export interface ExecuteOptions {
  readonly dryRun: boolean;
  readonly base: string;
  readonly mergeMethod: MergeMethod;
  /** The base commit the checkout holds, and its tree: every PR branch is this plus one commit. */
  readonly parent: string;
  readonly parentTree?: string;
  readonly print: (line: string) => void;
  /** Branches the run already wrote in one go (pr-command): their heads, or why one was not written. */
  readonly written?: ReadonlyMap<string, BranchWrite>;
  /** Told about each PR opened, updated, merged or closed (the Action's outputs); never in a dry run. */
  readonly report?: (event: PullRequestEvent) => void;
}

/**
 * Applies one app's actions through the ScmClient, in order; with dryRun prints each one instead
 * and makes no write call. Returns the PR the app's proposal lives in, if any.
 */
export async function execute(
  scm: ScmClient,
  app: string,
  actions: readonly Action[],
  o: ExecuteOptions,
): Promise<PullRequest | undefined> {
  let live: PullRequest | undefined;
  const told = (action: PullRequestAction, pr: PullRequest | undefined) =>
    pr && !o.dryRun && o.report?.(pullEvent(app, action, pr));
  for (const a of actions) {
    const say = (text: string) => o.print(`${app}: ${o.dryRun ? 'would ' : ''}${text}`);
    const moved = movedBranch(a, o);
    // Someone pushed to the branch since the scan: as for a PR with commits rollgen did not make, it is left alone.
    if (moved) {
      o.print(`${app}: ${moved.message}`);
      return live;
    }
    switch (a.kind) {
      case 'open':
        if (o.dryRun)
          say(
            `open a PR from ${a.proposal.branch} into ${o.base}: "${a.proposal.title}" [${a.proposal.labels.join(', ')}]\n${fileList(a.proposal)}`,
          );
        else told('opened', (live = await open(scm, a.proposal, o, say)));
        break;
      case 'update':
        if (!o.dryRun) told('updated', (live = await update(scm, a.pr, a.proposal, a.commit, a.fields, o)));
        else live = a.pr;
        say(
          `update ${a.pr.ref} (${[a.commit ? 'new content' : '', ...Object.keys(a.fields)].filter(Boolean).join(', ')})${a.commit && o.dryRun ? `\n${fileList(a.proposal)}` : ''}`,
        );
        break;
      case 'merge': {
        const merged = o.dryRun || (await mergeUnlessMoved(scm, a.pr, o));
        if (merged !== true) {
          say(
            merged === false
              ? `left ${a.pr.ref} unmerged: its head moved after its checks were read; the next run checks the new head`
              : `${a.pr.ref} not merged yet: ${merged}`,
          );
          break;
        }
        told('merged', a.pr);
        say(`merge ${a.pr.ref} (gate passed, checks green)`);
        break;
      }
      case 'merge-opened': {
        const merged = o.dryRun || !live || (await mergeUnlessMoved(scm, live, o));
        if (merged !== true) {
          say(
            merged === false
              ? `left ${live!.ref} unmerged: its head moved; the next run merges it`
              : `${live!.ref} not merged yet: ${merged}`,
          );
          break;
        }
        told('merged', live);
        say(`merge ${live ? live.ref : 'it'} at once (${a.reason})`);
        break;
      }
      case 'close':
        if (!o.dryRun) await closeSuperseded(scm, a, live);
        told('closed', a.pr);
        say(`close ${a.pr.ref} (${a.why}${live ? ` by ${live.ref}` : ''})`);
        break;
      case 'note-hold':
        if (!o.dryRun) await noteHold(scm, a);
        say(`note on ${a.pr.ref} that ${app} is held`);
        break;
      case 'need-checks':
      case 'wait':
        if (a.kind === 'wait' && a.pr) live = a.pr;
        if (a.kind === 'wait' && a.pr && !o.dryRun)
          o.report?.({ app, action: 'waiting', number: a.pr.number, url: a.pr.url, reason: a.reason });
        o.print(`${app}: ${a.kind === 'wait' ? a.reason : `checks of ${a.pr.ref} unknown`}`);
        break;
    }
  }
  return live;
}

/** The refusal of the branch write `a` needed, when the branch moved since the scan (its lease failed). */
function movedBranch(a: Action, o: ExecuteOptions): ScmError | undefined {
  if (a.kind !== 'open' && !(a.kind === 'update' && a.commit)) return undefined;
  const done = o.written?.get(a.proposal.branch);
  return done && 'error' in done && done.error.outcome === 'head-moved' ? done.error : undefined;
}

/** The report of one PR event; the step comes from the PR's branch (`rollgen/<app>/step-2` is "step 2"). */
export function pullEvent(app: string, action: PullRequestAction, pr: PullRequest): PullRequestEvent {
  const target = parseBranch(pr.branch)?.target;
  const step = target && (target.kind === 'step' ? `step ${target.step}` : target.kind);
  return { app, action, number: pr.number, url: pr.url, ...(step ? { step } : {}) };
}

function fileList(p: Proposal): string {
  return p.changes.map((c) => `    ${c.content === null ? 'delete' : 'write'} ${c.path}`).join('\n');
}

async function open(scm: ScmClient, p: Proposal, o: ExecuteOptions, say: (t: string) => void): Promise<PullRequest> {
  const head = await commit(scm, p, o);
  try {
    const pr = await scm.createPull({
      branch: p.branch,
      base: o.base,
      title: p.title,
      body: withHead(p.body, head),
      labels: p.labels,
    });
    say(`opened ${pr.ref} ${pr.url}`);
    return pr;
  } catch (e) {
    // A concurrent run opened the PR between our scan and here, or our own POST did and its response
    // was lost (the client's retry then hears "already exists"): adopt it rather than fail or duplicate.
    // Its labels are set here too: they are a second request that never ran for a lost response.
    const existing = isConflict(e)
      ? (await scm.listPulls({ prefix: p.branch, state: 'open' })).find((x) => x.branch === p.branch)
      : undefined;
    if (!existing) throw e;
    say(`found ${existing.ref}, opened by a concurrent run`);
    const fields = { ...changedFields(existing, p), body: withHead(p.body, head) };
    return scm.updatePull(existing.number, fields);
  }
}

async function update(
  scm: ScmClient,
  pr: PullRequest,
  p: Proposal,
  withCommit: boolean,
  fields: { body?: string },
  o: ExecuteOptions,
): Promise<PullRequest> {
  // A new commit always rewrites the body: its marker records the commit rollgen made.
  const all = withCommit
    ? { ...fields, body: withHead(fields.body ?? p.body, await commit(scm, p, o)) }
    : fields.body
      ? { ...fields, body: withHead(fields.body, parseMarker(pr.body)?.head ?? '') }
      : fields;
  return Object.keys(all).length > 0 ? scm.updatePull(pr.number, all) : pr;
}

/** The branch becomes the base plus one commit; a branch created by a concurrent run in between is force-moved on a second try. */
async function commit(scm: ScmClient, p: Proposal, o: ExecuteOptions): Promise<string> {
  const done = o.written?.get(p.branch);
  if (done) {
    if ('error' in done) throw done.error;
    return done.sha;
  }
  const req = {
    branch: p.branch,
    parent: o.parent,
    ...(o.parentTree ? { parentTree: o.parentTree } : {}),
    base: o.base,
    message: p.message,
    changes: p.changes,
  };
  try {
    return await scm.commitToBranch(req);
  } catch (e) {
    if (!isConflict(e)) throw e;
    return scm.commitToBranch(req);
  }
}

/** The branch or PR to create already exists: a concurrent run (or our own request whose response was lost) made it. */
function isConflict(e: unknown): boolean {
  return e instanceof ScmError && e.outcome === 'already-exists';
}

async function closeSuperseded(
  scm: ScmClient,
  a: Extract<Action, { kind: 'close' }>,
  by: PullRequest | undefined,
): Promise<void> {
  const body = a.marker ? withMarker(a.pr.body, { ...a.marker, closedBy: 'rollgen' }) : undefined;
  await scm.updatePull(a.pr.number, { state: 'closed', ...(body ? { body } : {}) });
  const why = by ? `superseded by ${by.ref}` : 'no longer what the base branch needs next';
  await scm.comment(a.pr.number, `rollgen closed this PR: ${why}.`);
}

async function noteHold(scm: ScmClient, a: Extract<Action, { kind: 'note-hold' }>): Promise<void> {
  const app = a.marker.app;
  const held =
    a.marker.target === 'abort'
      ? `rollgen holds ${app}: this abort PR was closed without merging, so the canary stays at its step; no step PR opens or merges for ${app}, even once its health recovers. To go on, push a new revision of ${app}, or run \`rollgen retry ${app} --pr\` (open the next step's PR) or \`rollgen abort ${app} --pr\`.`
      : `rollgen holds ${app}: this PR was closed without merging, so no new PR opens for it. To go on, push a new revision of ${app}, or run \`rollgen retry ${app} --pr\` (open this step again) or \`rollgen abort ${app} --pr\`.`;
  await scm.comment(a.pr.number, held);
  // The marker remembers the note, so later runs neither repeat it nor spend a request on reading comments.
  await scm.updatePull(a.pr.number, { body: withMarker(a.pr.body, { ...a.marker, noted: true }) });
}
