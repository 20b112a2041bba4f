import * as path from 'path';
import { GitRunner } from '../io/git';
import { STATUS_FILE } from '../state/status';

/** What the base's first-parent history says about one app. */
export interface AppHistoryDates {
  /** When the app's current state landed: the last commit that changed its status file. */
  readonly landedAt?: Date;
  /**
   * No PR that matters to the app is older: its state's landing, or for an app that never landed, its
   * source's first appearance. Unknown in a shallow clone, whose oldest commit dates neither.
   */
  readonly pullsSince?: Date;
}

export interface AppPaths {
  readonly source: string;
  readonly output: string;
}

/** Keeps each git command line well under the OS argument limit; most repos need one call. */
const MAX_PATH_BYTES = 100_000;

/**
 * The history of every app from one `git log` (a batch per ~100 KB of paths), not one per app.
 * First parent, because a merge commit (not the PR's own older commit) is when a step landed. A
 * shallow clone dates a landing no earlier, so gates only wait longer; but a later date would hide
 * closed PRs from the scan, so there pullsSince stays unknown.
 */
export function readAppHistories(git: GitRunner, root: string, apps: readonly AppPaths[]): AppHistoryDates[] {
  const shallow = git(['rev-parse', '--is-shallow-repository'], root).trim() === 'true';
  const statusOf = new Map(apps.map((a, i) => [rel(root, path.join(a.output, STATUS_FILE)), i]));
  const sourceOf = new Map(apps.map((a, i) => [rel(root, a.source), i]));
  const landed = new Map<number, Date>();
  const since = new Map<number, Date>();
  for (const batch of batches([...statusOf.keys(), ...sourceOf.keys()])) {
    const log = git(
      ['log', '--first-parent', '-z', '--format=%x01%cI', '--name-only', 'HEAD', '--', ...batch.map(literal)],
      root,
    );
    for (const { date, files } of commits(log)) {
      for (const file of files) {
        const status = statusOf.get(file);
        if (status !== undefined && !landed.has(status)) landed.set(status, date);
        // Newest first: the last date seen for a source is its first appearance.
        for (const i of sourcesHolding(sourceOf, file)) since.set(i, date);
      }
    }
  }
  return apps.map((_, i) => {
    const at = landed.get(i);
    const pullsSince = shallow ? undefined : (at ?? since.get(i));
    return { ...(at ? { landedAt: at } : {}), ...(pullsSince ? { pullsSince } : {}) };
  });
}

/** A path as git must match it: `*`, `?` and `[` in a directory name are not wildcards. */
const literal = (p: string) => `:(literal)${p}`;

function rel(root: string, p: string): string {
  return path.relative(root, p).split(path.sep).join('/') || '.';
}

/** Apps whose source directory holds `file` (a repository path). */
function* sourcesHolding(sourceOf: ReadonlyMap<string, number>, file: string): Generator<number> {
  if (sourceOf.has('.')) yield sourceOf.get('.')!;
  for (let dir = file; ; dir = dir.slice(0, dir.lastIndexOf('/'))) {
    const i = sourceOf.get(dir);
    if (i !== undefined) yield i;
    if (!dir.includes('/')) return;
  }
}

/** `git log -z --format=%x01%cI --name-only`: per commit \x01DATE\0\nNAME\0NAME\0 (names unquoted). */
function* commits(log: string): Generator<{ date: Date; files: string[] }> {
  for (const record of log.split('\x01').slice(1)) {
    const [date, ...names] = record.split('\0');
    yield { date: new Date(date), files: names.map((n) => n.replace(/^\n/, '')).filter(Boolean) };
  }
}

function batches(paths: readonly string[]): string[][] {
  const out: string[][] = [];
  let size = MAX_PATH_BYTES;
  for (const p of paths) {
    if (size + p.length + 1 > MAX_PATH_BYTES) {
      out.push([]);
      size = 0;
    }
    out[out.length - 1].push(p);
    size += p.length + 1;
  }
  return out;
}
