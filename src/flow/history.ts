import * as path from 'path';
import { indexByPath } from '../io/confine';
import { GitRunner } from '../io/git';
import { STATUS_FILE } from '../state/status';
import { dirsHolding, literal, pathBatches, repoPath } from './git-paths';

/** What the base's first-parent history says about one app. */
export interface BaseHistory {
  /** When the app's current state landed: the last commit that changed its status file. */
  readonly landedAt?: Date;
  /**
   * No PR that matters to the app is older: its state's landing, or for an app that never landed, its
   * source's first appearance. Unknown in a shallow clone, whose oldest commit dates neither.
   */
  readonly pullsSince?: Date;
  /** The last commit that changed the app's output: the one that landed the step the base carries. */
  readonly landingSha?: string;
}

export interface AppPaths {
  readonly source: string;
  readonly output: string;
}

/**
 * The history of every app from one `git log` (a batch per ~100 KB of paths), not one per app.
 * First parent, because a merge commit (not the PR's own older commit) is when a step landed. A
 * shallow clone dates a landing no earlier, so gates only wait longer; but a later date would hide
 * closed PRs from the scan, so there pullsSince stays unknown.
 */
export function readAppHistories(
  git: GitRunner,
  root: string,
  apps: readonly AppPaths[],
  shallow = git(['rev-parse', '--is-shallow-repository'], root).trim() === 'true',
): BaseHistory[] {
  // Two apps may share a source or an output: each path maps to every app it belongs to.
  const statusOf = indexByPath(apps.map((a) => repoPath(root, path.join(a.output, STATUS_FILE))));
  const sourceOf = indexByPath(apps.map((a) => repoPath(root, a.source)));
  const outputOf = indexByPath(apps.map((a) => repoPath(root, a.output)));
  const landed = new Map<number, Date>();
  const since = new Map<number, Date>();
  const landingSha = new Map<number, string>();
  const firstSeen = <T>(seen: Map<number, T>, apps: readonly number[] | undefined, value: T) => {
    for (const i of apps ?? []) if (!seen.has(i)) seen.set(i, value);
  };
  const paths = [...new Set([...statusOf.keys(), ...sourceOf.keys(), ...outputOf.keys()])];
  for (const batch of pathBatches(paths)) {
    const log = git(
      ['log', '--first-parent', '-z', '--format=%x01%H %cI', '--name-only', 'HEAD', '--', ...batch.map(literal)],
      root,
    );
    for (const { sha, date, files } of commits(log)) {
      for (const file of files) {
        firstSeen(landed, statusOf.get(file), date);
        for (const output of dirsHolding(outputOf, file)) firstSeen(landingSha, output, sha);
        // Newest first: the last date seen for a source is its first appearance.
        for (const source of dirsHolding(sourceOf, file)) for (const i of source) since.set(i, date);
      }
    }
  }
  return apps.map((_, i) => {
    const at = landed.get(i);
    const pullsSince = shallow ? undefined : (at ?? since.get(i));
    const sha = landingSha.get(i);
    return {
      ...(at ? { landedAt: at } : {}),
      ...(pullsSince ? { pullsSince } : {}),
      ...(sha ? { landingSha: sha } : {}),
    };
  });
}

/** `git log -z --format=%x01%H %cI --name-only`: per commit \x01SHA DATE\0\nNAME\0NAME\0 (names unquoted). */
function* commits(log: string): Generator<{ sha: string; date: Date; files: string[] }> {
  for (const record of log.split('\x01').slice(1)) {
    const [header, ...names] = record.split('\0');
    const [sha, date] = header.split(' ');
    yield { sha, date: new Date(date), files: names.map((n) => n.replace(/^\n/, '')).filter(Boolean) };
  }
}
