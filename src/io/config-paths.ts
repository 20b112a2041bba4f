import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic, Origin } from '../diagnostics';
import { childPath, isNormalAbsolute } from './confine';

/** Where a field of one `apps[i]` entry is written in rollgen.yaml. */
export type EntryLocator = (field: readonly (string | number)[]) => Origin;

/** True when a source is a pattern (`*`, `?`, `[...]`, `{a,b}`, `**`, extglobs), not a plain path. */
export function isPattern(source: string): boolean {
  return glob().isDynamicPattern(source);
}

/**
 * The directories a source pattern matches, sorted, with the patterns users know from their shell
 * and CI tools (tinyglobby: picomatch syntax, incl. braces and `**`). Hidden directories are skipped.
 */
export function globDirs(root: string, pattern: string): string[] {
  return oneLevelDirs(root, pattern) ?? walkedDirs(root, pattern);
}

/**
 * globDirs of the common pattern `dir/glob` whose glob is one segment (`apps/*`): one listing of
 * `dir`, matched name by name, instead of a crawl by the glob library plus a walk for links (as
 * many apps, as many matches). Undefined for any other pattern, or when `dir` cannot be listed:
 * globDirs then takes the general way. test/safety/glob-dirs.test.ts checks both ways agree.
 */
function oneLevelDirs(root: string, pattern: string): string[] | undefined {
  const picomatch = loadPicomatch();
  const { base, glob } = picomatch.scan(pattern);
  const oneSegment = !glob.includes('/') && !glob.includes('**') && !glob.startsWith('.');
  if (!oneSegment || pattern !== (base ? `${base}/${glob}` : glob)) return undefined;
  const dir = path.join(root, base);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const isMatch = picomatch(pattern);
  const out: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const rel = base ? `${base}/${e.name}` : e.name;
    const abs = childPath(dir, e.name);
    if (isMatch(rel) && (e.isDirectory() || (e.isSymbolicLink() && isDirectory(abs)))) out.push(abs);
  }
  return out.sort();
}

/** globDirs by the glob library, plus the links it leaves out; any pattern. */
export function walkedDirs(root: string, pattern: string): string[] {
  const deepest = maxSegments(pattern);
  const found = glob().globSync(pattern, {
    cwd: root,
    onlyDirectories: true,
    absolute: true,
    expandDirectories: false,
    followSymbolicLinks: false,
    // Without it the walk also lists every matched app's own files, in case a deeper path matched.
    ...(deepest === Infinity ? {} : { deep: deepest - 1 }),
  });
  // The glob library returns directories only; a link is kept when it leads to one.
  const linked = linkedMatches(root, pattern, deepest).filter((d) => isDirectory(d));
  // The library's dot option does not cover every pattern: `apps/!(a)` matched apps/.git.
  const base = path.join(root, loadPicomatch().scan(pattern).base);
  const visible = (d: string) =>
    !path
      .relative(base, d)
      .split(path.sep)
      .some((s) => s.startsWith('.') && s !== '..');
  return [...new Set([...found, ...linked].map(normalDir))].filter(visible).sort();
}

/** A match as path.resolve would give it: the glob library ends directories with a separator. */
function normalDir(d: string): string {
  const trimmed = d.length > 1 && d.endsWith('/') ? d.slice(0, -1) : d;
  return isNormalAbsolute(trimmed) ? trimmed : path.resolve(d);
}

/**
 * How many path segments a match of `pattern` can have: a segment wildcard never matches `/`, so
 * without `**` a match has at most one segment more than the pattern has slashes (a brace holding
 * `/` included).
 */
function maxSegments(pattern: string): number {
  return pattern.includes('**') ? Infinity : (pattern.match(/\//g)?.length ?? 0) + 1;
}

const isDirectory = (p: string): boolean => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

/**
 * Links the pattern matches: the glob library leaves out a link that leads outside the directory it
 * walks, and a skipped app would be silently missing; returned, they are refused by name (config-confine.ts).
 */
function linkedMatches(root: string, pattern: string, deepest: number): string[] {
  const picomatch = loadPicomatch();
  const isMatch = picomatch(pattern);
  const out: string[] = [];
  const walk = (rel: string, depth: number): void => {
    if (depth > 32) return;
    const dir = path.join(root, rel);
    if (!isDirectory(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymbolicLink() && isMatch(child)) out.push(path.join(root, child));
      else if (e.isDirectory() && child.split('/').length < deepest) walk(child, depth + 1);
    }
  };
  const base = picomatch.scan(pattern).base;
  if (isDirectory(path.join(root, base))) walk(base, 0);
  return out;
}

function loadPicomatch(): typeof import('picomatch') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('picomatch') as typeof import('picomatch');
}

/** The glob library loads only for a rollgen.yaml that uses a pattern. */
function glob(): typeof import('tinyglobby') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('tinyglobby') as typeof import('tinyglobby');
}

/**
 * Mistakes in one entry's paths that would make apps overwrite each other: a pattern source whose
 * output has no `{name}` (every match would write to one directory), a pattern in the output, and
 * `name:` on a pattern (each match is named after its directory).
 */
export function entryPathProblems(e: Record<string, unknown>, at: EntryLocator): Diagnostic[] {
  const source = String(e.source);
  const output = String(e.output);
  const out: Diagnostic[] = [];
  const error = (field: string, message: string) => out.push({ ...at([field]), message, severity: 'error' });
  if (isPattern(output.replace(/\{name\}/g, 'x')))
    error('output', `output "${output}" is a pattern; write a directory, with {name} for each app of a pattern source`);
  else if (isPattern(source) && !output.includes('{name}'))
    error(
      'output',
      `source "${source}" is a pattern, so every app it matches would write to "${output}"; put {name} in the output (e.g. deploy/{name})`,
    );
  if (isPattern(source) && typeof e.name === 'string')
    error(
      'name',
      `name: "${e.name}" cannot name every app of the pattern "${source}"; each is named after its directory`,
    );
  return out;
}

/** Two apps writing one output would overwrite each other's files and status (an output overlapping a source: config-confine.ts). */
export function sharedOutputProblems(
  apps: readonly { readonly name: string; readonly output: string }[],
  /** Where the entry of the i-th app is written in rollgen.yaml. */
  entryOf: (i: number) => EntryLocator,
  cwd: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const shown = (p: string) => path.relative(cwd, p) || '.';
  // Grouped by output first: one pass over the apps, not every pair of them.
  const byOutput = new Map<string, number[]>();
  apps.forEach((a, i) => {
    const group = byOutput.get(a.output);
    if (group) group.push(i);
    else byOutput.set(a.output, [i]);
  });
  apps.forEach((a, i) => {
    const group = byOutput.get(a.output)!;
    if (group.length < 2) return;
    const others = group.filter((j) => j !== i).map((j) => apps[j].name);
    out.push({
      ...entryOf(i)(['output']),
      message: `app ${a.name} writes to ${shown(a.output)}, as ${others.join(', ')} does; give each app its own output`,
      severity: 'error',
    });
  });
  return dedupe(out);
}

/**
 * Two entries reading one source (each output would own the same objects, with a rollout state
 * each) and an output inside another app's (a recursive sync of the outer one applies the inner
 * app's objects too). Linear in apps: each output's parents are looked up, not every pair.
 */
export function overlappingAppProblems(
  apps: readonly {
    readonly name: string;
    readonly source: string;
    readonly output: string;
    readonly build?: string;
    readonly target?: { readonly app: string };
  }[],
  entryOf: (i: number) => EntryLocator,
  cwd: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const shown = (p: string) => path.relative(cwd, p) || '.';
  const bySource = new Map<string, number>();
  const byOutput = new Map(apps.map((a, i) => [a.output, i]));
  apps.forEach((a, i) => {
    const first = bySource.get(a.source);
    if (first === undefined) bySource.set(a.source, i);
    else if (builtPerTarget(a, apps[first])) {
      // Targets of one app built by `build:` from one directory (`{target}` in the command).
    } else
      out.push({
        ...entryOf(i)(['source']),
        message: `app ${a.name} reads ${shown(a.source)}, as app ${apps[first].name} does: two outputs would own the same objects; list each source once`,
        severity: 'error',
      });
    for (let d = path.dirname(a.output); d !== path.dirname(d); d = path.dirname(d)) {
      const outer = byOutput.get(d);
      if (outer === undefined) continue;
      out.push({
        ...entryOf(i)(['output']),
        message: `app ${a.name} writes to ${shown(a.output)}, inside app ${apps[outer].name}'s output ${shown(d)}: a sync of that directory would apply both apps; put the outputs side by side`,
        severity: 'error',
      });
      break;
    }
  });
  return out;
}

function builtPerTarget(
  a: { readonly build?: string; readonly target?: { readonly app: string } },
  b: { readonly build?: string; readonly target?: { readonly app: string } },
): boolean {
  return a.target !== undefined && a.target.app === b.target?.app && a.build !== undefined && a.build !== b.build;
}

function dedupe(list: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.line}:${d.col}:${d.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}
