import { Diagnostic, Origin } from '../diagnostics';
import { isObject } from '../model/kube';

type Locate = (path: readonly (string | number)[]) => Origin;

/**
 * A `health:` that names nothing to wait for (`{}`, `statuses: []`): an app's would replace the
 * shared gate with none, so its automatic and timed steps would merge unwatched; the shared one would
 * gate nothing. Either way the entry does not do what it looks like, so it is refused at its line.
 */
export function emptyHealthProblems(config: Record<string, unknown>, locate: Locate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const shared = config.health !== undefined;
  if (shared && namesNothing(config.health))
    out.push({
      ...locate(['health']),
      message:
        'health names nothing to wait for (no statuses, checkRuns or argocd), so it gates nothing; list the statuses or check runs to wait for, or remove it',
      severity: 'error',
    });
  const apps = Array.isArray(config.apps) ? config.apps : [];
  apps.forEach((e, i) => {
    if (!isObject(e) || e.health === undefined || !namesNothing(e.health)) return;
    const instead = shared
      ? 'remove it to keep the shared health gate of rollgen.yaml'
      : 'remove it (there is no shared health gate either)';
    out.push({
      ...locate(['apps', i, 'health']),
      message: `health names nothing to wait for (no statuses, checkRuns or argocd), and an app's health replaces the shared one, so this app would have no health gate; ${instead}, or list the statuses or check runs to wait for`,
      severity: 'error',
    });
  });
  return out;
}

function namesNothing(h: unknown): boolean {
  if (!isObject(h)) return false; // the schema refuses it
  const listed = (v: unknown) => Array.isArray(v) && v.length > 0;
  return !listed(h.statuses) && !listed(h.checkRuns) && h.argocd === undefined;
}

/** The labels rollgen sets itself: `rollgen` on every PR and `rollgen:<gate>` by the step's gate. */
const OWN_LABEL = /^rollgen(:|$)/i;

/**
 * `pr:` values the schema cannot judge. A label of rollgen's own (`rollgen:automatic`) on every PR
 * would mark a manual step PR automatic for any automation keyed on it; `workflow` goes into a link
 * under .github/workflows, so it is a file name there, never a path out of it.
 */
export function prFieldProblems(pr: unknown, locate: Locate): Diagnostic[] {
  if (!isObject(pr)) return [];
  const out: Diagnostic[] = [];
  (Array.isArray(pr.labels) ? pr.labels : []).forEach((label, i) => {
    if (typeof label === 'string' && OWN_LABEL.test(label))
      out.push({
        ...locate(['pr', 'labels', i]),
        message: `label "${label}" is rollgen's own (rollgen marks every PR, rollgen:<gate> tells manual, timed and automatic steps apart) and would mislabel its PRs; remove it or choose another name`,
        severity: 'error',
      });
  });
  const workflow = pr.workflow;
  if (typeof workflow === 'string' && !/^[A-Za-z0-9_.-]+\.ya?ml$/.test(workflow))
    out.push({
      ...locate(['pr', 'workflow']),
      message: `workflow "${workflow}" is not a file name: write the name of the workflow file under .github/workflows (e.g. ${suggestedWorkflow(workflow)})`,
      severity: 'error',
    });
  return out;
}

function suggestedWorkflow(written: string): string {
  const base = written.split(/[\\/]/).pop() ?? '';
  return /^[A-Za-z0-9_.-]+\.ya?ml$/.test(base) && base !== '..' ? base : 'rollgen.yml';
}

/**
 * `metricSecrets` names environment variables, never holds a value: a pasted key (not a variable
 * name) is refused at its line without echoing it, before it is committed anywhere else.
 */
export function metricSecretProblems(
  secrets: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined,
  locate: Locate,
): Diagnostic[] {
  return Object.entries(secrets ?? {}).flatMap(([secret, keys]) =>
    Object.entries(keys)
      .filter(([, env]) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(env))
      .map(([key]) => ({
        ...locate(['metricSecrets', secret, key]),
        severity: 'error' as const,
        message: `metricSecrets.${secret}.${key} must name an environment variable (letters, digits, _), not hold the value: keep the value in a CI secret and name its variable here`,
      })),
  );
}
