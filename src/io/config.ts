import * as fs from 'fs';
import * as path from 'path';
import type { AppAnalysisConfig } from '../analysis/rollout-analysis';
import type { MetricSecrets } from '../analysis/credentials';
import { Diagnostic, Origin } from '../diagnostics';
import { InputError } from '../errors';
import { isObject } from '../model/kube';
import { GatePolicy, defaultGatePolicy } from '../plan/gates';
import { TrackLabel, defaultTrackLabel } from '../model/track';
import { entryValueProblems } from './config-values';
import type { Removal, StepSubset } from '../state/lifecycle';
import { validateSchema } from '../spec/validate-schema';
import { parseYamlStream } from '../yaml/parse';
import {
  EntryLocator,
  entryPathProblems,
  globDirs,
  isPattern,
  sharedOutputProblems,
  overlappingAppProblems,
} from './config-paths';
import { confineApps, confineNamedPaths } from './config-confine';
import { emptyHealthProblems, metricSecretProblems, prFieldProblems } from './config-checks';
import { ResolvedTarget, TargetConfig, fillTarget, resolveTargets } from './config-targets';
import { WaveCandidate, WaveConfig, readWaves } from './config-waves';
import { VerifyConfig, verifyConfig, verifyProblems } from './config-verify';

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
  /** Statuses and check runs that must report success on the commit carrying the step (`{name}` filled in). */
  readonly health?: HealthPolicy;
  /** What a failed health gate or analysis does: abort by itself (default) or open the abort PR for a person. */
  readonly onFailure?: OnFailure;
  /** Where rollgen.yaml is: paths the source reaches must stay below it. */
  readonly root?: string;
  /** `build:`: a shell command (run in `root`) whose stdout is the source. */
  readonly build?: string;
  /** `analysis:` as written (Kruise apps), resolved when the app loads. */
  readonly analysis?: AppAnalysisConfig;
  /** Absolute directory of shared AnalysisTemplates (rollgen.yaml `analysisTemplates`). */
  readonly analysisTemplates?: string;
  /** rollgen.yaml `metricSecrets`: the environment variables metric providers read their credentials from. */
  readonly metricSecrets?: MetricSecrets;
  /** Set on each app that is one target of an entry with `targets:` (docs/fleet.md). */
  readonly target?: TargetConfig;
  /** `verify:`: gates that read the live load balancer (docs/aws-verification.md). */
  readonly verify?: VerifyConfig;
  /** The steps its wave runs, when not all of the rollout's: some of them, or a straight promotion. */
  readonly waveSteps?: StepSubset;
}

export type OnFailure = 'abort' | 'hold';

/** Globs over commit-status contexts and check-run names; each must be matched by a success. */
export interface HealthPolicy {
  readonly statuses: readonly string[];
  readonly checkRuns: readonly string[];
  /** Argo CD's Application API, read where the token variable is set. */
  readonly argocd?: ArgoCdSource;
}

export interface ArgoCdSource {
  readonly server: string;
  /** The Application's name (`{name}` filled in). */
  readonly application: string;
  /** Environment variable holding an Argo CD API token (default ARGOCD_AUTH_TOKEN). */
  readonly tokenEnv: string;
}

/**
 * A GITHUB_TOKEN has 1,000 REST requests an hour per repository, shared by every workflow, and
 * GitHub allows 500 content-creating requests an hour: 400 a run (200 new step PRs at 2 requests
 * each) leaves room for other workflows and for the next run within the hour.
 */
export const DEFAULT_MAX_REQUESTS = 400;

/** `pr:` of rollgen.yaml: settings of the GitHub PR flow. Template paths are absolute. */
export interface PrConfig {
  readonly base?: string;
  readonly titleTemplate?: string;
  readonly bodyTemplate?: string;
  readonly labels: readonly string[];
  readonly mergeMethod: 'merge' | 'squash' | 'rebase';
  /** Most GitHub API requests one `rollgen pr` run spends; apps past it wait for the next run. */
  readonly maxRequests: number;
  /** File name of the workflow under .github/workflows that runs rollgen (PR bodies link its dispatch for abort). */
  readonly workflow: string;
  /**
   * Template files named here that are not there, located at their field: only `validate` and `pr`
   * refuse them (the other commands render no PR).
   */
  readonly templateProblems?: readonly Diagnostic[];
}

export interface RepoConfig {
  readonly file: string;
  readonly root: string;
  readonly apps: readonly AppConfig[];
  readonly pr: PrConfig;
  /** `waves:` in order (docs/fleet.md); empty without. */
  readonly waves: readonly WaveConfig[];
}

/** Each target of a wave whose `steps:` is not all runs those steps only (docs/fleet.md). */
function withWaveSteps(apps: AppConfig[], waves: readonly WaveConfig[]): AppConfig[] {
  const stepsOf = new Map<string, StepSubset>();
  for (const w of waves) if (w.steps !== 'all') for (const t of w.targets) stepsOf.set(t, w.steps);
  return apps.map((a) => (stepsOf.has(a.name) ? { ...a, waveSteps: stepsOf.get(a.name)! } : a));
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
  const value = doc.value as {
    apps: Record<string, unknown>[];
    health?: unknown;
    onFailure?: OnFailure;
    analysisTemplates?: string;
    metricSecrets?: MetricSecrets;
  };
  const defaults = { health: value.health, onFailure: value.onFailure ?? 'abort' };
  const shared = value.analysisTemplates;
  out.push(...entryValueProblems(doc.value as Record<string, unknown>, doc.locate)); // the shared health
  out.push(...emptyHealthProblems(doc.value as Record<string, unknown>, doc.locate));
  out.push(...metricSecretProblems(value.metricSecrets, doc.locate));
  out.push(...verifyProblems(doc.value as Record<string, unknown>, doc.locate));
  if (shared !== undefined && !fs.statSync(path.resolve(root, shared), { throwIfNoEntry: false })?.isDirectory())
    out.push({
      ...doc.locate(['analysisTemplates']),
      message: `analysisTemplates "${shared}" is not a directory; name the directory that holds the shared AnalysisTemplates`,
      severity: 'error',
    });
  /** The entry of each app, by the app's position in `apps`. */
  const entries: EntryLocator[] = [];
  const candidates: WaveCandidate[] = [];
  const apps = confineApps(
    root,
    value.apps,
    doc.locate,
    out,
    (e, i) => {
      const at: EntryLocator = (field) => doc.locate(['apps', i, ...field]);
      const problems = [...entryPathProblems(e, at), ...entryValueProblems(e, at)];
      out.push(...problems);
      if (problems.length > 0) return [];
      // What every app of the entry shares, built once per entry.
      const verify = verifyConfig(e.verify, (doc.value as { verify?: unknown }).verify, root);
      const common = {
        gates: gatePolicy(e, at),
        ...(verify ? { verify } : {}),
        ...analysisOf(e, i, doc.locate),
        ...(shared ? { analysisTemplates: path.resolve(root, shared) } : {}),
        ...(value.metricSecrets ? { metricSecrets: value.metricSecrets } : {}),
      };
      if (Array.isArray(e.targets)) {
        const targets = resolveTargets(root, e, i, doc.locate, out);
        entries.push(...targets.map((t) => t.at));
        const apps = targets.map((t) => targetApp(root, e, t, defaults, common));
        candidates.push(...targets.map((t, k) => ({ app: apps[k].name, target: t.target, at: t.at(['name']) })));
        return apps;
      }
      const expanded = expandApp(root, e, defaults, () => doc.locate(['apps', i]), out, common);
      for (let n = 0; n < expanded.length; n++) entries.push(at);
      return expanded;
    },
    shared ? path.resolve(root, shared) : undefined,
  );
  out.push(...sharedOutputProblems(apps, (i) => entries[i], cwd));
  out.push(...overlappingAppProblems(apps, (i) => entries[i], cwd));
  checkUniqueNames(apps, doc.locate(['apps']), out);
  const waves = readWaves((doc.value as { waves?: unknown }).waves, candidates, doc.locate, out);
  const pr = (doc.value as { pr?: Record<string, unknown> }).pr ?? {};
  out.push(...confineNamedPaths(root, doc.value as Record<string, unknown>, doc.locate));
  out.push(...prFieldProblems(pr, doc.locate));
  if (out.length > 0) throw new InputError(out);
  return { file, root, apps: withWaveSteps(apps, waves), pr: prConfig(root, pr, doc.locate), waves };
}

/** The entry's gates over the defaults; where `unpaused` is written, so a policy it cannot apply is warned there. */
function gatePolicy(e: Record<string, unknown>, at: EntryLocator): GatePolicy {
  if (!isObject(e.gates)) return defaultGatePolicy;
  const written = e.gates as Partial<GatePolicy>;
  return {
    ...defaultGatePolicy,
    ...written,
    ...(written.unpaused !== undefined ? { unpausedAt: at(['gates', 'unpaused']) } : {}),
  };
}

function isFile(file: string): boolean {
  return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
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

function prConfig(root: string, pr: Record<string, unknown>, locate: (p: readonly string[]) => Origin): PrConfig {
  const at = (p: unknown) => (typeof p === 'string' ? path.resolve(root, p) : undefined);
  const templateProblems = (['titleTemplate', 'bodyTemplate'] as const)
    .filter((field) => typeof pr[field] === 'string' && !isFile(at(pr[field])!))
    .map(
      (field): Diagnostic => ({
        ...locate(['pr', field]),
        severity: 'error',
        message: `pr.${field}: ${String(pr[field])} is not a file (paths are relative to rollgen.yaml's directory); create it, fix the path, or remove pr.${field} to use the built-in template`,
      }),
    );
  return {
    templateProblems,
    ...(typeof pr.base === 'string' ? { base: pr.base } : {}),
    ...(at(pr.titleTemplate) ? { titleTemplate: at(pr.titleTemplate) } : {}),
    ...(at(pr.bodyTemplate) ? { bodyTemplate: at(pr.bodyTemplate) } : {}),
    labels: Array.isArray(pr.labels) ? pr.labels.map(String) : [],
    mergeMethod: (pr.mergeMethod as PrConfig['mergeMethod'] | undefined) ?? 'squash',
    maxRequests: typeof pr.maxRequests === 'number' ? pr.maxRequests : DEFAULT_MAX_REQUESTS,
    workflow: typeof pr.workflow === 'string' ? pr.workflow : 'rollgen.yml',
  };
}

function expandApp(
  root: string,
  e: Record<string, unknown>,
  defaults: { readonly health?: unknown; readonly onFailure: OnFailure },
  at: () => Diagnostic | Omit<Diagnostic, 'message' | 'severity'>,
  out: Diagnostic[],
  common: Pick<AppConfig, 'gates' | 'analysis' | 'analysisTemplates' | 'metricSecrets' | 'verify'>,
): AppConfig[] {
  const source = String(e.source);
  const dirs = isPattern(source) ? globDirs(root, source) : [path.resolve(root, source)];
  if (dirs.length === 0) out.push({ ...at(), message: `source "${source}" matches no directory`, severity: 'error' });
  else if (!isPattern(source) && !fs.statSync(dirs[0], { throwIfNoEntry: false })?.isDirectory()) {
    out.push({
      ...at(),
      message: `source "${source}" is not a directory; name the app's directory`,
      severity: 'error',
    });
    return [];
  }
  const track = isObject(e.trackLabel)
    ? { ...defaultTrackLabel, ...(e.trackLabel as Partial<TrackLabel>) }
    : defaultTrackLabel;
  const outputOf = outputResolver(root, String(e.output));
  return dirs.map((dir) => {
    const name = typeof e.name === 'string' && dirs.length === 1 ? e.name : path.basename(dir);
    const removal = e.removal === 'two-commits' ? 'two-commits' : 'one-commit';
    const health = healthPolicy(e.health ?? defaults.health, fillTarget(name), name);
    return {
      name,
      source: dir,
      output: outputOf(name),
      track,
      removal,
      ...(health ? { health } : {}),
      onFailure: (e.onFailure as OnFailure | undefined) ?? defaults.onFailure,
      root,
      ...(typeof e.build === 'string' ? { build: e.build.replace(/\{name\}/g, name) } : {}),
      ...common,
    };
  });
}

/** One target of an entry as an app of its own, named `<app>-<target>`, `{name}` and `{target}` filled in. */
function targetApp(
  root: string,
  e: Record<string, unknown>,
  t: ResolvedTarget,
  defaults: { readonly health?: unknown; readonly onFailure: OnFailure },
  common: Pick<AppConfig, 'gates' | 'analysis' | 'analysisTemplates' | 'verify'>,
): AppConfig {
  const name = `${t.target.app}-${t.target.name}`;
  const health = healthPolicy(e.health ?? defaults.health, t.fill, name);
  return {
    name,
    source: t.source,
    output: t.output,
    track: isObject(e.trackLabel)
      ? { ...defaultTrackLabel, ...(e.trackLabel as Partial<TrackLabel>) }
      : defaultTrackLabel,
    removal: e.removal === 'two-commits' ? 'two-commits' : 'one-commit',
    ...(health ? { health } : {}),
    onFailure: (e.onFailure as OnFailure | undefined) ?? defaults.onFailure,
    root,
    ...(typeof e.build === 'string' ? { build: t.fill(e.build) } : {}),
    ...common,
    target: t.target,
  };
}

/**
 * An entry's output for each app name: `path.resolve(root, output)` with `{name}` filled in. The
 * pattern is resolved once with a marker in the name's place, so each app costs a substitution; a
 * name that is not one plain path segment takes path.resolve, whose result would differ.
 */
export function outputResolver(root: string, written: string): (name: string) => string {
  const MARK = '\u0000'; // never in a path
  const template = path.resolve(root, written.replace(/\{name\}/g, MARK));
  const markable = !written.includes(MARK);
  const plain = (name: string) =>
    markable && name !== '' && name !== '.' && name !== '..' && !/[/\\]/.test(name) && !name.includes(MARK);
  return (name) =>
    plain(name)
      ? template.split(MARK).join(name)
      : path.resolve(
          root,
          written.replace(/\{name\}/g, () => name),
        );
}

/**
 * The app's health gate with `{name}` (and a target's `{target}`) filled in; undefined when it names
 * nothing to wait for. The Argo CD Application defaults to the app's own name.
 */
function healthPolicy(h: unknown, fill: (s: string) => string, name: string): HealthPolicy | undefined {
  if (!isObject(h)) return undefined;
  const globs = (v: unknown) => (Array.isArray(v) ? v.map((g) => fill(String(g))) : []);
  const argo = isObject(h.argocd) ? h.argocd : undefined;
  const policy: HealthPolicy = {
    statuses: globs(h.statuses),
    checkRuns: globs(h.checkRuns),
    ...(argo
      ? {
          argocd: {
            server: String(argo.server),
            application: argo.application === undefined ? name : fill(String(argo.application)),
            tokenEnv: typeof argo.tokenEnv === 'string' ? argo.tokenEnv : 'ARGOCD_AUTH_TOKEN',
          },
        }
      : {}),
  };
  return policy.statuses.length + policy.checkRuns.length > 0 || policy.argocd ? policy : undefined;
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
