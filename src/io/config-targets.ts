import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic, Origin } from '../diagnostics';
import { isAppName } from '../model/app-name';
import { isObject } from '../model/kube';
import { confinePattern } from './confine';
import { isPattern } from './config-paths';

type Locate = (p: readonly (string | number)[]) => Origin;

/** One cluster's copy of an app (rollgen.yaml `apps[].targets[]`), see docs/fleet.md. */
export interface TargetConfig {
  /** The app entry's name; the target's app is named `<app>-<target>`. */
  readonly app: string;
  readonly name: string;
  /** As written, with `cluster` filled in (default: the target's name). */
  readonly labels: Readonly<Record<string, string>>;
  /** Cross-app rules (one canary per host, ALB orders per listener) hold within one cluster. */
  readonly cluster: string;
}

/** What one target of an entry resolves to, before it becomes an AppConfig. */
export interface ResolvedTarget {
  readonly target: TargetConfig;
  /** `{name}` and `{target}` filled in. */
  readonly fill: (s: string) => string;
  readonly source: string;
  readonly output: string;
  /** Where a field of this target is written: its own when it has it, else the app entry's. */
  readonly at: (field: readonly (string | number)[]) => Origin;
}

export const fillTarget =
  (app: string, target?: string) =>
  (s: string): string => {
    const named = s.replace(/\{name\}/g, () => app);
    return target === undefined ? named : named.replace(/\{target\}/g, () => target);
  };

/**
 * The targets of entry `i`, each with its source, output and labels; the problems go to `out` at
 * the line they are written (a name given twice, two targets writing one output, a source that is
 * no directory, a pattern source), and a target with a problem is left out.
 */
export function resolveTargets(
  root: string,
  e: Record<string, unknown>,
  i: number,
  locate: Locate,
  out: Diagnostic[],
): ResolvedTarget[] {
  const entryAt = (field: readonly (string | number)[]) => locate(['apps', i, ...field]);
  const source = String(e.source);
  const app = appNameOf(e, entryAt, out);
  if (app === undefined) return [];
  if (isPattern(source.replace(/\{target\}/g, 'x'))) {
    out.push(
      error(
        entryAt(['source']),
        `source "${source}" is a pattern; an app with targets: names one source (use {target} for an overlay per target)`,
      ),
    );
    return [];
  }
  const seen = new Map<string, string>();
  const resolved: ResolvedTarget[] = [];
  (e.targets as Record<string, unknown>[]).forEach((t, j) => {
    const at = (field: readonly (string | number)[]) =>
      field.length > 0 && t[field[0]] !== undefined ? locate(['apps', i, 'targets', j, ...field]) : entryAt(field);
    const r = resolveOne(root, e, app, t, at, out);
    if (!r) return;
    const name = r.target.name;
    if (resolved.some((x) => x.target.name === name)) {
      out.push(error(at(['name']), `target "${name}" is listed twice in app ${app}; give each target its own name`));
      return;
    }
    const writer = seen.get(r.output);
    if (writer !== undefined) {
      out.push(
        error(
          at(['output']),
          `targets ${writer} and ${name} of app ${app} both write to ${path.relative(root, r.output) || '.'}; put {target} in the output or give each target its own output`,
        ),
      );
      return;
    }
    seen.set(r.output, name);
    resolved.push(r);
  });
  return resolved;
}

function resolveOne(
  root: string,
  e: Record<string, unknown>,
  app: string,
  t: Record<string, unknown>,
  at: (field: readonly (string | number)[]) => Origin,
  out: Diagnostic[],
): ResolvedTarget | undefined {
  const name = String(t.name);
  const fill = fillTarget(app, name);
  if (!isAppName(`${app}-${name}`)) {
    out.push(
      error(
        at(['name']),
        `target ${name} of app ${app} would be the app "${app}-${name}", longer than a DNS label (63 characters); shorten the app or target name`,
      ),
    );
    return undefined;
  }
  const written = { source: String(t.source ?? e.source), output: String(t.output ?? e.output) };
  const confined = [
    ...confinePattern(root, written.source.replace(/\{target\}/g, 'x'), 'source', at(['source'])),
    ...confinePattern(root, written.output.replace(/\{target\}/g, 'x'), 'output', at(['output'])),
  ];
  out.push(...confined);
  if (confined.length > 0) return undefined;
  const source = path.resolve(root, fill(written.source));
  if (!fs.statSync(source, { throwIfNoEntry: false })?.isDirectory()) {
    // A source written on the entry ({target} in it) is wrong for this target only: point at the target.
    out.push(
      error(
        at([t.source === undefined ? 'name' : 'source']),
        `target ${name}: source "${path.relative(root, source)}" is not a directory; create the target's overlay or fix the source`,
      ),
    );
    return undefined;
  }
  const labels = isObject(t.labels) ? (t.labels as Record<string, string>) : {};
  const cluster = labels.cluster ?? name;
  return {
    target: { app, name, labels: { ...labels, cluster }, cluster },
    fill,
    source,
    output: path.resolve(root, fill(written.output)),
    at,
  };
}

/** The entry's app name: `name:`, or its source directory's when the source has no `{target}`. */
function appNameOf(e: Record<string, unknown>, at: Locate, out: Diagnostic[]): string | undefined {
  if (typeof e.name === 'string') return e.name;
  const source = String(e.source);
  if (!source.includes('{target}')) return path.basename(source);
  out.push(
    error(at(['source']), `source "${source}" varies per target, so it cannot name the app; set name: on the entry`),
  );
  return undefined;
}

const error = (at: Origin, message: string): Diagnostic => ({ ...at, message, severity: 'error' });
