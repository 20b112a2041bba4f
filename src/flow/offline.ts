import { InputError } from '../errors';
import { RunContext } from '../app/context';
import { LoadedEntry } from '../app/load-repo';
import type { PullRequestPreview } from '../app/report';
import { Proposal } from './proposal';
import { FlowOptions, LocalSession, openLocalSession } from './session';

/**
 * `--dry-run --offline`: the title, labels and body of the PR each app would get now, from the
 * checkout alone. No token is read and no request made, so users can check their own templates
 * anywhere. What only the code host knows is left out: a hold by a closed PR, the health and
 * analysis report a gate adds, and whether the PR exists already.
 */
export async function previewOffline(
  ctx: RunContext,
  args: readonly string[],
  opts: FlowOptions,
  propose: (s: LocalSession, entries: readonly LoadedEntry[]) => (Proposal | undefined)[],
): Promise<void> {
  if (!opts.dryRun) throw new InputError([], '--offline goes with --dry-run: without GitHub nothing can be opened');
  const s = await openLocalSession(ctx, args, opts);
  // Every proposal first: an app with an error prints nothing at all.
  const proposals = propose(s, s.apps).map((proposal, i) => ({ app: s.apps[i].app.name, proposal }));
  for (const { app, proposal } of proposals) {
    if (ctx.preview) ctx.preview(previewData(app, proposal));
    else ctx.stdout(proposal ? preview(proposal) : `== ${app}: no PR to propose ==\n\n`);
  }
}

function previewData(app: string, p: Proposal | undefined): PullRequestPreview {
  if (!p) return { app, branch: null, title: null, labels: [], body: null };
  return { app, branch: p.branch, title: p.title, labels: p.labels, body: p.body };
}

function preview(p: Proposal): string {
  return [`== ${p.app}: ${p.branch} ==`, `title: ${p.title}`, `labels: ${p.labels.join(', ')}`, '', p.body].join('\n');
}
