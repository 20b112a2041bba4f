import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic, Origin } from '../diagnostics';

/**
 * Repository confinement of rollgen.yaml, like kustomize's load restrictor: every path it names
 * (sources, outputs, templates, glob patterns) resolves inside the directory of rollgen.yaml, links
 * included, so a commit to rollgen.yaml cannot make rollgen read /etc or write ../../etc/cron.d.
 * Outputs and sources are kept apart: rollgen would otherwise render into what it reads.
 */

/** Resolves real paths for one run: each directory is resolved once, so N apps under one parent cost N lstats. */
export type RealPaths = (p: string) => string;

/**
 * A real-path resolver with its own cache (one per read of rollgen.yaml: the file system may change
 * between runs). A path that does not exist yet (an output not made yet) is its deepest existing
 * ancestor's real path with the rest appended. A link anywhere on the way is resolved by the OS.
 * The second path asked for under one directory lists that directory once (its links by name), so
 * N apps under apps/ cost one readdir, not N lstats.
 */
export function realPaths(): RealPaths {
  const known = new Map<string, string>();
  const asked = new Map<string, number>();
  const listed = new Map<string, ReadonlySet<string> | undefined>();
  const isLinkIn = (parent: string, abs: string): boolean => {
    if (!listed.has(parent)) {
      const n = (asked.get(parent) ?? 0) + 1;
      asked.set(parent, n);
      if (n < 2) return isLink(abs);
      listed.set(parent, linksIn(parent));
    }
    const links = listed.get(parent);
    return links ? links.has(nameOf(abs)) : isLink(abs);
  };
  const resolve = (abs: string): string => {
    const cached = known.get(abs);
    if (cached !== undefined) return cached;
    const parent = parentOf(abs);
    let real: string;
    if (parent === abs) real = fs.realpathSync(abs);
    else {
      const realParent = resolve(parent);
      real = isLinkIn(parent, abs) ? realOrParent(abs) : childPath(realParent, nameOf(abs));
    }
    known.set(abs, real);
    return real;
  };
  // Asked again (sources and outputs are checked twice), a path is one lookup: no normalising.
  return (p) => known.get(p) ?? resolve(isNormalAbsolute(p) ? p : path.resolve(p));
}

/** path.dirname and path.basename of a normal absolute path, by string cuts on POSIX (this runs for every app). */
const parentOf = (abs: string): string => {
  if (path.sep !== '/') return path.dirname(abs);
  const cut = abs.lastIndexOf('/');
  return cut > 0 ? abs.slice(0, cut) : '/';
};
const nameOf = (abs: string): string => (path.sep === '/' ? abs.slice(abs.lastIndexOf('/') + 1) : path.basename(abs));

/** `dir/name` by concatenation: both parts are already normal (path.join normalises again, per app). */
export const childPath = (dir: string, name: string): string =>
  dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;

const DOT = 46;
const SLASH = 47;
/**
 * Absolute with no `.`, `..`, empty segment or trailing separator: path.resolve would return it as
 * is. A scan of the `/.` places, not a regex (this runs for every path of every app); a name that
 * starts with a dot (`.work`, `.github`) is normal.
 */
export const isNormalAbsolute = (p: string): boolean => {
  if (path.sep !== '/' || !p.startsWith('/')) return false;
  if (p === '/') return true;
  if (p.endsWith('/') || p.includes('//')) return false;
  for (let at = p.indexOf('/.'); at !== -1; at = p.indexOf('/.', at + 1)) {
    const dots = p.charCodeAt(at + 2) === DOT ? 2 : 1;
    if (at + 1 + dots === p.length || p.charCodeAt(at + 1 + dots) === SLASH) return false;
  }
  return true;
};

/** The names of the links in `dir`; empty when it does not exist, undefined when it cannot be listed (then each is asked). */
function linksIn(dir: string): ReadonlySet<string> | undefined {
  try {
    return new Set(
      fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isSymbolicLink())
        .map((e) => e.name),
    );
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? new Set() : undefined;
  }
}

/** Only a link changes where a path leads; a missing or unreadable entry is taken as written, as existsSync would. */
function isLink(abs: string): boolean {
  try {
    return fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  } catch {
    return false;
  }
}

/** A link: the OS follows it (a dangling one leaves the link's own place). */
function realOrParent(abs: string): string {
  try {
    return fs.realpathSync(abs);
  } catch {
    return path.join(fs.realpathSync(path.dirname(abs)), path.basename(abs));
  }
}

export function isInside(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** A path as written in rollgen.yaml (before globbing): absolute or climbing out of the repository is refused as written. */
export function confinePattern(root: string, written: string, field: string, at: Origin): Diagnostic[] {
  const lexical = path.resolve(root, written.replace(/\{(name|target)\}/g, 'x'));
  if (path.isAbsolute(written) || !isInside(lexical, root))
    return [error(at, `${field} "${written}" is outside the repository; paths in rollgen.yaml stay inside ${root}`)];
  return [];
}

/** A resolved path (a glob match, a template): its real path, links followed, must stay inside the repository. */
export function confinePath(
  root: string,
  p: string,
  field: string,
  at: Origin | (() => Origin),
  real: RealPaths = realPaths(),
): Diagnostic[] {
  return pathConfiner(root, real)(p, field, at);
}

/** confinePath for many paths of one repository: the root's real path is resolved once, not per app. */
export function pathConfiner(
  root: string,
  real: RealPaths,
): (p: string, field: string, at: Origin | (() => Origin)) => Diagnostic[] {
  const realRoot = real(root);
  const prefix = realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep;
  return (p, field, at) => {
    const resolved = real(p);
    if (resolved === realRoot || resolved.startsWith(prefix)) return [];
    return [
      error(
        typeof at === 'function' ? at() : at,
        `${field} ${path.relative(root, p) || '.'} leads outside the repository (to ${resolved}) through a link`,
      ),
    ];
  };
}

export interface SourceAndOutput {
  readonly name: string;
  readonly source: string;
  readonly output?: string;
}

/**
 * An output equal to, inside, or containing any app's source would make rollgen read what it writes.
 * Each path is resolved once and each is looked up among the ancestors of the other kind, so N apps
 * cost N times the depth of their paths, not N² comparisons. Problems come in app order, then source order.
 */
export function outputOverlaps(apps: readonly SourceAndOutput[], real: RealPaths = realPaths()): string[] {
  if (!apps.some((a) => a.output)) return []; // `render SOURCE`: nothing written, nothing to resolve
  const sourcePaths = apps.map((b) => real(b.source));
  const sources = indexByPath(sourcePaths);
  const outputs = apps.map((a) => (a.output ? real(a.output) : undefined));
  const byOutput = indexByPath(outputs);
  // Apps share parents (apps/, deploy/): what lies at or above a parent is looked up once per parent.
  const sourcesAbove = atOrAbove(sources);
  const outputsAbove = atOrAbove(byOutput);
  const found: [number, number, string][] = [];
  outputs.forEach((out, i) => {
    if (out === undefined) return;
    for (const j of sources.get(out) ?? []) found.push([i, j, 'is']);
    const up = parentOf(out);
    if (up !== out) for (const j of sourcesAbove(up)) found.push([i, j, 'is inside']);
  });
  sourcePaths.forEach((source, j) => {
    const up = parentOf(source);
    if (up !== source) for (const i of outputsAbove(up)) found.push([i, j, 'contains']);
  });
  found.sort(([a1, b1], [a2, b2]) => a1 - a2 || b1 - b2);
  return found.map(([i, j, relation]) => {
    const a = apps[i];
    const whose = i === j ? 'its own source' : `the source of app ${apps[j].name}`;
    const fix = relation === 'is' ? 'write the output to its own directory' : 'move it out';
    return `app ${a.name}: the output ${relation} ${whose}; ${fix}`;
  });
}

/** For a directory, the positions of `byPath` at it or any ancestor of it, nearest first; memoised per directory. */
function atOrAbove(byPath: ReadonlyMap<string, number[]>): (dir: string) => readonly number[] {
  const memo = new Map<string, readonly number[]>();
  return (dir) => {
    let hits = memo.get(dir);
    if (hits === undefined) {
      hits = [dir, ...ancestors(dir)].flatMap((up) => byPath.get(up) ?? []);
      memo.set(dir, hits);
    }
    return hits;
  };
}

/** Position(s) of each path in `paths` (undefined ones left out). */
export function indexByPath(paths: readonly (string | undefined)[]): Map<string, number[]> {
  const map = new Map<string, number[]>();
  paths.forEach((p, i) => {
    if (p === undefined) return;
    if (!map.has(p)) map.set(p, []);
    map.get(p)!.push(i);
  });
  return map;
}

/** The strict ancestors of an absolute path, nearest first (string cuts: this runs for every app). */
function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let cut = p.lastIndexOf(path.sep); cut >= 0; cut = cut === 0 ? -1 : p.lastIndexOf(path.sep, cut - 1))
    out.push(cut === 0 ? path.sep : p.slice(0, cut));
  return out;
}

function error(at: Origin, message: string): Diagnostic {
  return { ...at, message, severity: 'error' };
}
