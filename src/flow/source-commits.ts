import { printable } from '../diagnostics';
import { indexByPath } from '../io/confine';
import { GitRunner } from '../io/git';
import { dirsHolding, literal, pathBatches, repoPath } from './git-paths';
import { SourceCommit } from './template-data';

/** The first window of history read; each next one is four times longer, so deep history costs few calls. */
const FIRST_WINDOW = 64;

/**
 * The newest commit under each source directory on HEAD (the change a PR body names), undefined
 * where none: one `git log` for all sources (a batch per ~100 KB of paths), read newest first in
 * growing windows until every source has its commit, instead of one `git log -1` per app.
 *
 * Full history, not first parent: the PR's own commit, not the merge that brought it. `-c` lists a
 * merge's files only where it differs from every parent (a conflict resolution), as `git log -1 --
 * DIR` shows such a merge; a clean merge lists none and the commits it brought stand for it.
 */
export function readSourceCommits(
  git: GitRunner,
  root: string,
  sources: readonly string[],
): (SourceCommit | undefined)[] {
  const dirOf = indexByPath(sources.map((s) => repoPath(root, s)));
  const found = new Map<number, SourceCommit>();
  for (const batch of pathBatches([...dirOf.keys()])) {
    const wanted = () => batch.some((dir) => dirOf.get(dir)!.some((i) => !found.has(i)));
    for (let skip = 0, window = FIRST_WINDOW; wanted(); skip += window, window *= 4) {
      const args = ['log', '-c', '-z', '--format=%x01%H%x00%s', '--name-only', `--skip=${skip}`, `-${window}`];
      const log = git([...args, 'HEAD', '--', ...batch.map(literal)], root);
      let read = 0;
      for (const { commit, files } of commitsOf(log)) {
        read++;
        for (const file of files)
          for (const apps of dirsHolding(dirOf, file)) for (const i of apps) if (!found.has(i)) found.set(i, commit);
      }
      if (read < window) break; // history exhausted
    }
  }
  return sources.map((_, i) => found.get(i));
}

/** `git log -z --format=%x01%H%x00%s --name-only`: per commit \x01SHA\0SUBJECT\0, then \nNAME\0NAME\0... */
function* commitsOf(log: string): Generator<{ commit: SourceCommit; files: string[] }> {
  const tokens = log.split('\0');
  for (let t = 0; t < tokens.length; ) {
    const sha = shaOf(tokens[t]);
    if (!sha) {
      t++;
      continue;
    }
    // A subject is anyone's text: control characters are escaped as in every name rollgen prints.
    const commit = { sha, short: sha.slice(0, 10), subject: printable(tokens[t + 1] ?? '') };
    const files: string[] = [];
    for (t += 2; t < tokens.length && !shaOf(tokens[t]); t++) if (tokens[t]) files.push(tokens[t].replace(/^\n/, ''));
    yield { commit, files };
  }
}

/** The commit id of a record's first token (\x01SHA), undefined for any other token. */
function shaOf(token: string): string | undefined {
  const sha = token.slice(1);
  return token.charCodeAt(0) === 1 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
}
