import { createHash } from 'crypto';
import * as path from 'path';
import { HealthPolicy } from '../io/config';
import { Gate } from '../model/plan';
import { TrackLabel } from '../model/track';
import { PendingWrite } from '../app/next-output';
import { FileChange } from '../scm/types';
import type { LoadedApp } from '../spec/loaded-app';
import { Target, branchName, targetSlug } from './branch';
import { commitMessage } from './local-commit';
import { Marker, withMarker } from './marker';
import { gateFor, labelsFor, targetOf } from './target';
import { RepoLinks } from './abort-path';
import { PrTemplateData, SourceCommit, templateData } from './template-data';
import { PrTemplates } from './templates';

/** One PR as rollgen would open it now: branch, files, title, body with marker, labels. Plain data. */
export interface Proposal {
  readonly app: string;
  readonly target: Target;
  readonly branch: string;
  readonly gate: Gate;
  readonly marker: Marker;
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
  readonly message: string;
  readonly changes: readonly FileChange[];
}

export interface ProposalInput {
  readonly app: LoadedApp;
  readonly write: PendingWrite;
  readonly origin: Marker['origin'];
  readonly base: string;
  /** Top of the git work tree: FileChange paths are relative to it. */
  readonly repoRoot: string;
  /** Content of a repository path on the base (the checkout), undefined when absent. */
  readonly readBase: (repoPath: string) => string | undefined;
  readonly templates: PrTemplates;
  readonly extraLabels: readonly string[];
  /** Overrides the target named from the transition (promote one step is the next step's PR). */
  readonly target?: Target;
  readonly track: TrackLabel;
  readonly health?: HealthPolicy;
  readonly links: RepoLinks;
  readonly sourceCommit?: SourceCommit;
}

/** What `advance` (or a command) would write, as a PR. Pure given `readBase`. */
export function buildProposal(i: ProposalInput): Proposal {
  const t = i.write.transition;
  const target = i.target ?? targetOf(i.write.before.status, t, i.write.command);
  const gate = i.origin === 'command' ? { kind: 'manual' as const } : gateFor(i.app, i.write.before.status, t);
  const branch = branchName(i.app.name, target);
  const { changes, files, digest } = fileChanges(i);
  const moving = t.status.rollouts.filter((r) => t.actions.some((a) => a.rollout === r.name));
  const marker: Marker = {
    v: 1,
    app: i.app.name,
    target: targetSlug(target),
    revision: moving.map((r) => r.canaryRevision ?? r.stableRevision).join(','),
    stable: moving.map((r) => r.stableRevision).join(','),
    digest,
    origin: i.origin,
  };
  const output = posix(path.relative(i.repoRoot, path.resolve(i.write.output))) || '.';
  const data: PrTemplateData = templateData({
    app: i.app,
    transition: t,
    before: i.write.before,
    track: i.track,
    ...(i.health ? { health: i.health } : {}),
    links: i.links,
    ...(i.sourceCommit ? { sourceCommit: i.sourceCommit } : {}),
    target,
    gate,
    base: i.base,
    branch,
    output,
    files,
  });
  return {
    app: i.app.name,
    target,
    branch,
    gate,
    marker,
    title: i.templates.title(data),
    body: withMarker(i.templates.body(data), marker),
    labels: labelsFor(gate, i.extraLabels),
    message: commitMessage(i.write),
    changes,
  };
}

/**
 * The changed files relative to the repository, sorted, and their digest. The digest also covers
 * what the base holds at those paths, so a base that moved under the PR's files resets the branch,
 * while a base that moved elsewhere costs no write at all.
 */
function fileChanges(i: ProposalInput): { changes: FileChange[]; files: PrTemplateData['files']; digest: string } {
  const out = path.resolve(i.write.output);
  const rel = (name: string) => posix(path.relative(i.repoRoot, path.join(out, name)));
  const wanted = [
    ...i.write.files.map((f) => ({ path: rel(f.path), content: f.content as string | null })),
    ...i.write.remove.map((n) => ({ path: rel(n), content: null })),
  ];
  const hash = createHash('sha256');
  const changes: FileChange[] = [];
  const files: { path: string; change: 'added' | 'modified' | 'deleted' }[] = [];
  for (const w of wanted.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const before = i.readBase(w.path);
    if (before === w.content || (before === undefined && w.content === null)) continue;
    changes.push(w);
    files.push({ path: w.path, change: w.content === null ? 'deleted' : before === undefined ? 'added' : 'modified' });
    hash.update(JSON.stringify([w.path, w.content, before === undefined ? null : sha(before)]) + '\n');
  }
  return { changes, files, digest: hash.digest('hex').slice(0, 16) };
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function posix(p: string): string {
  return p.split(path.sep).join('/');
}
