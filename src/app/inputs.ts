import * as fs from 'fs';
import * as path from 'path';
import { readinessGateWarnings } from './readiness-gate';
import { Diagnostic, hasErrors, printable, sortDiagnostics } from '../diagnostics';
import { InputError } from '../errors';
import { AppConfig, RepoConfig, findConfig, readConfig } from '../io/config';
import type { WaveConfig } from '../io/config-waves';
import { outputOverlaps } from '../io/confine';
import { OutputContents, readOutputDir } from '../io/output-dir';
import { SourceFile, readAppSource } from '../io/read-source';
import { buildSource } from '../io/build-source';
import { pointBack } from '../yaml/point-back';
import { KubeObject, isObject } from '../model/kube';
import { ResourceSet, SourceObject } from '../model/resource-set';
import { defaultGatePolicy } from '../plan/gates';
import { defaultTrackLabel } from '../model/track';
import { RENDERED_HEADER, contentDigest } from '../state/output-files';
import { loadApp } from './load-app';
import { suggestName } from '../suggest';
import type { LoadedApp } from '../spec/loaded-app';
import { validateManifests } from '../io/validate-k8s';
import { OutputSnapshot } from '../state/app-state';
import type { Removal } from '../state/lifecycle';
import { STATUS_FILE, parseStatus } from '../state/status';
import { outputKustomizationProblems } from '../state/output-kustomization';
import { ParseResult, ParsedDocument, UnparsedObject, parseYamlStream } from '../yaml/parse';

/** Where an app lives: from positional paths, or by name from rollgen.yaml. */
export interface AppLocation extends Omit<AppConfig, 'source' | 'output'> {
  readonly source: string | '-';
  readonly output?: string;
}

export interface LocateRequest {
  readonly cwd: string;
  readonly args: readonly string[];
  readonly file?: string;
  readonly config?: string;
  readonly removal?: Removal;
  readonly target?: string;
  /** `--wave W`: every target of wave W (of the named apps, when any). */
  readonly wave?: string;
}

/** `SOURCE [OUT]` when the first argument is a directory or -f is given; otherwise app names from rollgen.yaml (none = all). */
export function locateApps(req: LocateRequest): AppLocation[] {
  return locateWithRepo(req).named;
}

/** The named apps and, from the same read of rollgen.yaml, every app it lists (none without one). */
export function locateWithRepo(req: LocateRequest): {
  named: AppLocation[];
  every: AppLocation[];
  waves: readonly WaveConfig[];
} {
  const withRemoval = (found: AppLocation[]) =>
    req.removal ? found.map((l) => ({ ...l, removal: req.removal! })) : found;
  const every: AppLocation[] = [];
  const waves: WaveConfig[] = [];
  const named = withRemoval(locate(req, every, waves));
  return { named, every: withRemoval(every), waves };
}

function locate(req: LocateRequest, every: AppLocation[], waves: WaveConfig[] = []): AppLocation[] {
  const [first, second] = req.args;
  const defaults = { gates: defaultGatePolicy, track: defaultTrackLabel, removal: 'one-commit' as const };
  if (req.file === '-')
    return [{ name: 'stdin', source: '-', output: first ? path.resolve(req.cwd, first) : undefined, ...defaults }];
  if (directoryArgument(req)) {
    const source = path.resolve(req.cwd, first);
    const app = { name: path.basename(source), source, output: second ? path.resolve(req.cwd, second) : undefined };
    const overlaps = outputOverlaps([app]);
    if (overlaps.length > 0) throw new InputError([], overlaps.join('\n'));
    return [{ ...app, ...defaults }];
  }
  const configFile = req.config ? path.resolve(req.cwd, req.config) : findConfig(req.cwd);
  if (!configFile)
    throw new InputError(
      [],
      first
        ? `"${first}" is not a directory and there is no rollgen.yaml to look it up in`
        : 'give an app source directory, or run where rollgen.yaml is',
    );
  const config = readConfig(configFile, req.cwd);
  every.push(...config.apps);
  waves.push(...config.waves);
  if (req.wave !== undefined && req.target !== undefined)
    throw new InputError(
      [],
      `--wave and --target exclude each other: --wave ${req.wave} names every target of that wave`,
    );
  if (req.wave !== undefined)
    return waveNamed(config, req.args, req.wave, path.relative(req.cwd, configFile) || configFile);
  if (req.target !== undefined) return targetsNamed(config.apps, req.args, req.target, configFile, req.cwd);
  if (req.args.length === 0) return [...config.apps];
  return req.args.flatMap((name) => {
    const app = config.apps.find((a) => a.name === name);
    // An app with targets: is every one of its targets.
    const targets = app ? [] : config.apps.filter((a) => a.target?.app === name);
    if (targets.length > 0) return targets;
    if (!app)
      throw new InputError(
        [],
        `no app "${name}" in ${path.relative(req.cwd, configFile) || configFile}${didYouMean(name, config.apps)}; known: ${config.apps.map((a) => a.name).join(', ')}`,
      );
    return app;
  });
}

/** `--wave W`: the targets of wave W, in rollgen.yaml order (of the named apps' targets, when apps are named). */
function waveNamed(config: RepoConfig, args: readonly string[], wave: string, shown: string): AppConfig[] {
  const found = config.waves.find((w) => w.name === wave);
  if (!found)
    throw new InputError(
      [],
      `--wave ${wave}: ${shown} has no such wave${didYouMean(wave, config.waves)}${config.waves.length > 0 ? `; its waves: ${config.waves.map((w) => w.name).join(', ')}` : ' (it lists no waves:)'}`,
    );
  const picked = config.apps.filter(
    (a) => found.targets.includes(a.name) && (args.length === 0 || args.includes(a.target?.app ?? a.name)),
  );
  if (picked.length === 0)
    throw new InputError(
      [],
      `--wave ${wave}: no target of ${args.join(', ')} is in wave ${wave}; it moves ${found.targets.join(', ')}`,
    );
  return picked;
}

/** `--target T`: target T of each named app (of every app with targets when none is named). */
function targetsNamed(
  apps: readonly AppConfig[],
  args: readonly string[],
  target: string,
  configFile: string,
  cwd: string,
): AppConfig[] {
  const shown = path.relative(cwd, configFile) || configFile;
  const withTarget = apps.filter((a) => a.target?.name === target);
  if (args.length === 0) {
    if (withTarget.length > 0) return withTarget;
    const known = [...new Set(apps.flatMap((a) => (a.target ? [a.target.name] : [])))];
    throw new InputError(
      [],
      `--target ${target}: no app of ${shown} has that target${known.length > 0 ? `; known targets: ${known.join(', ')}` : ' (no app lists targets:)'}`,
    );
  }
  return args.map((name) => {
    const found = withTarget.find((a) => a.target!.app === name);
    if (found) return found;
    const own = apps.filter((a) => a.target?.app === name).map((a) => a.target!.name);
    throw new InputError(
      [],
      own.length > 0
        ? `app ${name} has no target "${target}"${didYouMean(
            target,
            own.map((n) => ({ name: n })),
          )}; its targets: ${own.join(', ')}`
        : `--target ${target}: app "${name}" in ${shown} has no targets:`,
    );
  });
}

function didYouMean(name: string, apps: readonly { readonly name: string }[]): string {
  const close = suggestName(
    name,
    apps.map((a) => a.name),
  );
  return close ? ` (did you mean ${close}?)` : '';
}

/** True when the request names apps of rollgen.yaml rather than a directory or stdin. */
export function usesConfig(req: LocateRequest): boolean {
  return req.file !== '-' && !directoryArgument(req);
}

/**
 * `SOURCE [OUT]` mode: the first argument is a directory. A bare word that rollgen.yaml lists as an
 * app is the app, even where a directory of that name exists (`source: web` with app `web`): read
 * as a directory it would have no output and so no state, and `simulate web` would show a rollout
 * at step 2 as stable. `./web` still means the directory.
 */
function directoryArgument(req: LocateRequest): boolean {
  const first = req.args[0];
  if (!first || !isDir(path.resolve(req.cwd, first))) return false;
  if (req.args.length > 1 || first.includes('/') || first.includes(path.sep) || first.startsWith('.')) return true;
  const configFile = req.config ? path.resolve(req.cwd, req.config) : findConfig(req.cwd);
  if (!configFile || !fs.existsSync(configFile)) return true;
  return !readConfig(configFile, req.cwd).apps.some((a) => a.name === first || a.target?.app === first);
}

function isDir(p: string): boolean {
  return fs.existsSync(p) && fs.statSync(p).isDirectory();
}

/**
 * Parses source files (unless `parsed` holds them, file by file) and loads the app; every problem
 * in every file is reported at once.
 */
export function loadSource(
  loc: AppLocation,
  files: readonly SourceFile[],
  cwd = process.cwd(),
  parsed: readonly ParseResult[] = files.map((f) => parseYamlStream(f.path, f.text)),
): LoadedApp {
  const docs: ParsedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  const unparsed: UnparsedObject[] = [];
  files.forEach((f, i) => {
    const r = parsed[i];
    docs.push(...(f.originals ? pointBack(r.documents, f.originals) : r.documents));
    diagnostics.push(...r.diagnostics);
    unparsed.push(...(r.unparsed ?? []));
  });
  const shared = loc.analysisTemplates ? readSharedTemplates(loc.analysisTemplates, diagnostics) : [];
  const app = loadApp(loc.name, docs, loc.gates, {
    sharedTemplates: shared,
    track: loc.track,
    ...(loc.analysis ? { config: loc.analysis } : {}),
    ...(loc.metricSecrets ? { metricSecrets: loc.metricSecrets } : {}),
    unparsed,
  });
  // Files that failed to parse first: what the app then misses follows from them.
  const readiness = loc.verify?.aws?.targetGroupIPs ? readinessGateWarnings(docs) : [];
  const all = [...sortDiagnostics(diagnostics), ...validateManifests(docs), ...app.diagnostics, ...readiness];
  // The app is loaded: a repo-wide run holds every app until it writes, but no longer their node trees.
  for (const r of parsed) r.release?.();
  if (hasErrors(all)) throw new InputError(all, undefined, true);
  if (app.rollouts.length === 0 && app.routings.length === 0 && !app.disabledRollouts?.length)
    throw new InputError(
      [],
      `${printable(loc.source === '-' ? '<stdin>' : path.relative(cwd, loc.source) || '.')}: no rollout: app ${loc.name} has no Rollout (rollouts.kruise.io or argoproj.io); add one, or leave the directory out of rollgen.yaml`,
    );
  return { ...app, diagnostics: all, ...(loc.target ? { cluster: loc.target.cluster } : {}) };
}

/** The documents of rollgen.yaml's `analysisTemplates` directory (only its templates are used). */
function readSharedTemplates(dir: string, diagnostics: Diagnostic[]): ParsedDocument[] {
  return readAppSource(dir, process.cwd()).flatMap((f) => {
    const r = parseYamlStream(f.path, f.text);
    diagnostics.push(...r.diagnostics);
    return r.documents;
  });
}

export function readSourceFiles(loc: AppLocation, cwd: string): SourceFile[] {
  if (loc.source === '-') return [];
  const root = loc.root ?? (isInside(loc.source, cwd) ? cwd : loc.source);
  const built = buildSource(
    { name: loc.name, source: loc.source, root, ...(loc.build ? { build: loc.build } : {}) },
    cwd,
  );
  return built ?? readAppSource(loc.source, cwd);
}

function isInside(target: string, dir: string): boolean {
  const rel = path.relative(dir, target);
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The output directory as rollgen sees it: status, kustomization text, and the objects it runs; empty when there is none. */
export function readOutput(loc: AppLocation, cwd: string, warn?: (line: string) => void): OutputSnapshot {
  const contents = readOutputDir(loc.output, cwd);
  if (contents.interrupted) warn?.(`warning: ${contents.interrupted}\n`);
  return outputSnapshot(contents);
}

/** readOutput of files already read (`parsed`: their parse results, file by file, when parsed elsewhere). */
export function outputSnapshot(
  contents: OutputContents,
  parsed: readonly ParseResult[] = contents.files.map((f) => parseYamlStream(f.path, f.text)),
): OutputSnapshot {
  let status: OutputSnapshot['status'];
  let kustomization: string | undefined;
  let listed: string[] = [];
  const objects: SourceObject[] = [];
  const diagnostics: Diagnostic[] = [];
  const renderedFiles: string[] = [];
  const fileDigests: Record<string, string> = {};
  contents.files.forEach((f, i) => {
    const base = path.basename(f.path);
    fileDigests[base] = contentDigest(f.text);
    if (f.text.startsWith(RENDERED_HEADER)) renderedFiles.push(base);
    if (base === 'kustomization.yaml') kustomization = f.text;
    const { documents, diagnostics: problems, release } = parsed[i];
    diagnostics.push(...problems);
    if (base === STATUS_FILE) status = statusOf(documents[0], diagnostics);
    else if (base === 'kustomization.yaml') listed = checkKustomization(documents[0], diagnostics);
    else
      for (const d of documents)
        if (isOutputObject(d, diagnostics))
          objects.push({ object: d.value as KubeObject, origin: d.origin, locate: d.locate });
    release?.(); // every app's output is held for the repo-wide checks; its node trees need not be
  });
  if (diagnostics.length > 0) throw new InputError(diagnostics);
  return {
    ...(status ? { status } : {}),
    ...(kustomization !== undefined ? { kustomization, listed } : {}),
    resources: new ResourceSet(objects),
    texts: new Map(contents.files.map((f) => [path.basename(f.path), f.text])),
    renderedFiles,
    fileDigests,
  };
}

function statusOf(doc: ParsedDocument | undefined, out: Diagnostic[]): OutputSnapshot['status'] {
  if (!doc) return undefined;
  const parsed = parseStatus(doc.value);
  const field = typeof parsed === 'string' ? /^(rollouts|files|history)(?:\[(\d+)\])?/.exec(parsed) : null;
  const at = field ? doc.locate(field[2] ? [field[1], Number(field[2])] : [field[1]]) : doc.origin;
  if (typeof parsed === 'string')
    out.push({ ...at, message: `${parsed}; restore the file from git history`, severity: 'error' });
  return typeof parsed === 'string' ? undefined : parsed;
}

const RESTORE = 'rollgen wrote this file: restore it from git history';

/** Output files are rollgen's, but anyone can commit to them: each must still be an object rollgen can read. */
function isOutputObject(d: ParsedDocument, out: Diagnostic[]): boolean {
  const v = d.value as Record<string, unknown>;
  if (!isObject(v) || typeof v.apiVersion !== 'string' || typeof v.kind !== 'string') {
    out.push({ ...d.origin, message: `not a Kubernetes object (apiVersion, kind); ${RESTORE}`, severity: 'error' });
    return false;
  }
  if (isObject(v.metadata) && typeof v.metadata.name === 'string') return true;
  out.push({ ...d.locate(['metadata']), message: `${v.kind} has no metadata.name; ${RESTORE}`, severity: 'error' });
  return false;
}

/** The output kustomization's problems, and the resources it lists. */
function checkKustomization(d: ParsedDocument | undefined, out: Diagnostic[]): string[] {
  if (d && !isObject(d.value))
    out.push({ ...d.origin, message: `not a Kustomization (a map with resources:); ${RESTORE}`, severity: 'error' });
  else if (d) out.push(...outputKustomizationProblems(d));
  const resources = d && isObject(d.value) ? d.value.resources : undefined;
  return Array.isArray(resources) ? resources.map(String) : [];
}
