import * as fs from 'fs';
import * as path from 'path';
import type { AppAnalysisConfig } from '../analysis/rollout-analysis';
import { Diagnostic, Origin } from '../diagnostics';
import { InputError } from '../errors';
import { isObject } from '../model/kube';
import { GatePolicy, defaultGatePolicy } from '../plan/gates';
import { TrackLabel, defaultTrackLabel } from '../model/track';
import type { Removal } from '../state/lifecycle';
import { validateSchema } from '../spec/validate-schema';
import { parseYamlStream } from '../yaml/parse';

export const CONFIG_FILE = 'rollgen.yaml';

export interface AppConfig {
  readonly name: string;
  /** Absolute paths. */
  readonly source: string;
  readonly output: string;
  readonly gates: GatePolicy;
  readonly track: TrackLabel;
  /** Default one-commit. */
  readonly removal?: Removal;
  /** `analysis:` as written (Kruise apps), resolved when the app loads. */
  readonly analysis?: AppAnalysisConfig;
  /** Absolute directory of shared AnalysisTemplates (rollgen.yaml `analysisTemplates`). */
  readonly analysisTemplates?: string;
}

/** `pr:` of rollgen.yaml: settings of the GitHub PR flow. Template paths are absolute. */
export interface PrConfig {
  readonly base?: string;
  readonly titleTemplate?: string;
  readonly bodyTemplate?: string;
  readonly labels: readonly string[];
  readonly mergeMethod: 'merge' | 'squash' | 'rebase';
}

export interface RepoConfig {
  readonly file: string;
  readonly root: string;
  readonly apps: readonly AppConfig[];
  readonly pr: PrConfig;
}

/** Finds rollgen.yaml in `dir` or its parents. */
export function findConfig(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const candidate = path.join(d, CONFIG_FILE);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(d) === d) return undefined;
  }
}

export function readConfig(file: string, cwd: string): RepoConfig {
  const shown = path.relative(cwd, file) || file;
  const { documents, diagnostics } = parseYamlStream(shown, fs.readFileSync(file, 'utf8'));
  if (diagnostics.length > 0) throw new InputError(diagnostics);
  const doc = documents[0];
  if (!doc)
    throw new InputError([
      {
        file: shown,
        line: 1,
        col: 1,
        message: 'rollgen.yaml is empty; list apps with source and output',
        severity: 'error',
      },
    ]);
  const problems = validateSchema('rollgen-config', doc);
  if (problems.length > 0) throw new InputError(problems);
  const root = path.dirname(file);
  const out: Diagnostic[] = [];
  const entries = (doc.value as { apps: Record<string, unknown>[] }).apps;
  const shared = (doc.value as { analysisTemplates?: string }).analysisTemplates;
  const apps = entries.flatMap((e, i) =>
    expandApp(root, e, () => doc.locate(['apps', i]), out).map((a) => ({
      ...a,
      ...analysisOf(e, i, doc.locate),
      ...(shared ? { analysisTemplates: path.resolve(root, shared) } : {}),
    })),
  );
  checkUniqueNames(apps, doc.locate(['apps']), out);
  if (out.length > 0) throw new InputError(out);
  return { file, root, apps, pr: prConfig(root, (doc.value as { pr?: Record<string, unknown> }).pr ?? {}) };
}

function analysisOf(
  e: Record<string, unknown>,
  i: number,
  locate: (p: readonly (string | number)[]) => Origin,
): { analysis?: AppAnalysisConfig } {
  return e.analysis === undefined
    ? {}
    : { analysis: { value: e.analysis, at: { locate, path: ['apps', i, 'analysis'] } } };
}

function prConfig(root: string, pr: Record<string, unknown>): PrConfig {
  const at = (p: unknown) => (typeof p === 'string' ? path.resolve(root, p) : undefined);
  return {
    ...(typeof pr.base === 'string' ? { base: pr.base } : {}),
    ...(at(pr.titleTemplate) ? { titleTemplate: at(pr.titleTemplate) } : {}),
    ...(at(pr.bodyTemplate) ? { bodyTemplate: at(pr.bodyTemplate) } : {}),
    labels: Array.isArray(pr.labels) ? pr.labels.map(String) : [],
    mergeMethod: (pr.mergeMethod as PrConfig['mergeMethod'] | undefined) ?? 'squash',
  };
}

function expandApp(
  root: string,
  e: Record<string, unknown>,
  at: () => Diagnostic | Omit<Diagnostic, 'message' | 'severity'>,
  out: Diagnostic[],
): AppConfig[] {
  const source = String(e.source);
  const dirs = source.includes('*') ? globDirs(root, source) : [path.resolve(root, source)];
  if (dirs.length === 0) out.push({ ...at(), message: `source "${source}" matches no directory`, severity: 'error' });
  const gates = isObject(e.gates) ? { ...defaultGatePolicy, ...(e.gates as Partial<GatePolicy>) } : defaultGatePolicy;
  const track = isObject(e.trackLabel)
    ? { ...defaultTrackLabel, ...(e.trackLabel as Partial<TrackLabel>) }
    : defaultTrackLabel;
  return dirs.map((dir) => {
    const name = typeof e.name === 'string' && dirs.length === 1 ? e.name : path.basename(dir);
    const removal = e.removal === 'two-commits' ? 'two-commits' : 'one-commit';
    return {
      name,
      source: dir,
      output: path.resolve(root, String(e.output).replace(/\{name\}/g, name)),
      gates,
      track,
      removal,
    };
  });
}

/** `*` and `?` within path segments; enough for `apps/*` and keeps the dependency list short. */
function globDirs(root: string, pattern: string): string[] {
  // `dir` is known from the directory listing, so a glob over many apps costs one readdir, not a stat each.
  let current: { path: string; dir?: boolean }[] = [{ path: root }];
  for (const segment of pattern.split('/').filter((s) => s !== '' && s !== '.')) {
    const re = new RegExp(
      `^${segment
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]')}$`,
    );
    current = current.flatMap(({ path: dir }) =>
      !segment.includes('*') && !segment.includes('?')
        ? [{ path: path.join(dir, segment) }].filter((p) => fs.existsSync(p.path))
        : fs
            .readdirSync(dir, { withFileTypes: true })
            .filter((e) => re.test(e.name) && !e.name.startsWith('.'))
            .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
            .map((e) => ({ path: path.join(dir, e.name), ...(e.isSymbolicLink() ? {} : { dir: e.isDirectory() }) })),
    );
  }
  return current.filter((p) => p.dir ?? fs.statSync(p.path).isDirectory()).map((p) => p.path);
}

function checkUniqueNames(
  apps: readonly AppConfig[],
  at: Omit<Diagnostic, 'message' | 'severity'>,
  out: Diagnostic[],
): void {
  const seen = new Set<string>();
  for (const a of apps) {
    if (seen.has(a.name))
      out.push({ ...at, message: `two apps are named "${a.name}"; set name: on one of them`, severity: 'error' });
    seen.add(a.name);
  }
}
