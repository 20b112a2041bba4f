import { Diagnostic, Origin, diagnosticAt } from '../diagnostics';
import { isObject } from '../model/kube';
import { Located, originOf } from '../model/analysis-request';
import { ResolvedArgs, unresolvedArg } from './args';
import { JobMetric } from './types';

/*
 * Argo's `provider.job`, the GitOps way: the Job is committed with the step whose gate runs the
 * analysis (src/render/analysis-jobs.ts) and removed with it; the GitOps engine's health of that
 * commit is its result (a failed Job makes Argo CD report the app Degraded, and fails a Flux
 * Kustomization that waits). What Argo does with several measurements cannot be done by one commit.
 */

/** Whether a metric as written uses the job provider. */
export const isJobMetric = (raw: Readonly<Record<string, unknown>>): boolean =>
  isObject(raw.provider) && raw.provider.job !== undefined;

const WHY_ONE_JOB =
  'Argo creates a new Job for each measurement; rollgen commits one Job with the step, whose engine report is the one measurement';

/** Metric fields a job metric cannot honour: refused (they would change the verdict) or warned (they would not). */
const REFUSED: Readonly<Record<string, (v: unknown) => string | undefined>> = {
  count: (v) =>
    Number(v) > 1
      ? `count ${String(v)}: ${WHY_ONE_JOB}; remove count and retry inside the Job (backoffLimit)`
      : undefined,
  interval: () => `interval: ${WHY_ONE_JOB}; remove interval and repeat inside the Job (completions, backoffLimit)`,
  failureLimit: (v) =>
    Number(v) !== 0
      ? 'failureLimit: the GitOps engine reports a failed Job as a failed step, so a tolerated failure cannot be told apart; remove it and let backoffLimit retry the Job'
      : undefined,
};
const UNUSED = [
  'successCondition',
  'failureCondition',
  'inconclusiveLimit',
  'consecutiveErrorLimit',
  'consecutiveSuccessLimit',
];

/** One `provider.job` metric -> JobMetric, args substituted everywhere in the Job; problems at their line. Pure. */
export function buildJobMetric(
  template: string,
  raw: Readonly<Record<string, unknown>>,
  at: Located,
  fill: (text: string) => string,
  dryRun: boolean,
  args: ResolvedArgs,
  out: Diagnostic[],
): JobMetric | undefined {
  const before = out.length;
  const where = (...f: (string | number)[]) => originOf(at, ...f);
  const name = String(raw.name ?? '');
  if (name === '') out.push(diagnosticAt(where(), 'a metric needs a name'));
  checkMetricFields(raw, where, dryRun, out);
  if (Object.keys(raw.provider as object).length > 1)
    out.push(diagnosticAt(where('provider'), 'a metric needs exactly one provider; this one has job and another'));
  const body = isObject(raw.provider) && isObject(raw.provider.job) ? raw.provider.job : undefined;
  const jobAt = (...f: (string | number)[]) => where('provider', 'job', ...f);
  if (!body) {
    out.push(diagnosticAt(jobAt(), 'job provider needs metadata and spec, as a Job (spec.template.spec.containers)'));
    return undefined;
  }
  const filled = fillDeep(body, fill) as Record<string, unknown>;
  checkArgs(body, args, jobAt(), out);
  const spec = isObject(filled.spec) ? filled.spec : {};
  checkJobSpec(spec, (...f) => jobAt('spec', ...f), out);
  const meta = isObject(filled.metadata) ? filled.metadata : {};
  const labels = stringMap(meta.labels, jobAt('metadata', 'labels'), out);
  const annotations = stringMap(meta.annotations, jobAt('metadata', 'annotations'), out);
  if (out.slice(before).some((d) => d.severity === 'error')) return undefined;
  return { name, template, origin: where(), labels, annotations, spec };
}

function checkMetricFields(
  raw: Readonly<Record<string, unknown>>,
  where: (...f: string[]) => Origin,
  dryRun: boolean,
  out: Diagnostic[],
): void {
  for (const [field, why] of Object.entries(REFUSED)) {
    const message = raw[field] === undefined ? undefined : why(raw[field]);
    if (message) out.push(diagnosticAt(where(field), `job metric "${String(raw.name)}": ${message}`));
  }
  for (const field of UNUSED.filter((f) => raw[f] !== undefined))
    out.push(
      diagnosticAt(where(field), `${field} is not used by a job metric: the Job's exit decides, as in Argo`, 'warning'),
    );
  if (raw.initialDelay !== undefined)
    out.push(
      diagnosticAt(
        where('initialDelay'),
        "initialDelay is not used by a job metric: the Job starts once the step's commit is applied (one sync wave after its routes); wait inside the Job instead",
        'warning',
      ),
    );
  if (dryRun)
    out.push(
      diagnosticAt(
        where(),
        `job metric "${String(raw.name)}" cannot run as dryRun: the GitOps engine reports its failed Job as a failed step; remove it from dryRun`,
      ),
    );
}

/** What the API server and the GitOps engines need of a Job rollgen commits. */
function checkJobSpec(spec: Record<string, unknown>, at: (...f: string[]) => Origin, out: Diagnostic[]): void {
  const pod = isObject(spec.template) && isObject(spec.template.spec) ? spec.template.spec : undefined;
  if (!pod || !Array.isArray(pod.containers) || pod.containers.length === 0) {
    out.push(diagnosticAt(at(), 'job provider needs spec.template.spec.containers'));
    return;
  }
  if (pod.restartPolicy !== 'Never' && pod.restartPolicy !== 'OnFailure')
    out.push(
      diagnosticAt(
        at('template', 'spec'),
        'a Job needs spec.template.spec.restartPolicy Never or OnFailure (the API server refuses any other)',
      ),
    );
  if (spec.ttlSecondsAfterFinished !== undefined)
    out.push(
      diagnosticAt(
        at('ttlSecondsAfterFinished'),
        'ttlSecondsAfterFinished would delete the committed Job, and the GitOps engine would create it again and rerun the analysis; remove it (rollgen removes the Job with the next step)',
      ),
    );
}

/** Args are substituted into the committed Job: an undeclared one, or a secret (it would be committed), is refused. */
function checkArgs(body: unknown, args: ResolvedArgs, at: Origin, out: Diagnostic[]): void {
  const text = JSON.stringify(body);
  const leftover = unresolvedArg(text, args);
  if (leftover) out.push(diagnosticAt(at, `the Job uses {{args.${leftover}}}, which no template declares`));
  const secret = args.secrets.find((s) => new RegExp(`\\{\\{\\s*args\\.${escape(s.name)}\\s*\\}\\}`).test(text));
  if (secret)
    out.push(
      diagnosticAt(
        at,
        `the Job uses the secret arg {{args.${secret.name}}}: its value would be committed to git; read the Secret in the Job instead (env valueFrom.secretKeyRef)`,
      ),
    );
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function fillDeep(v: unknown, fill: (text: string) => string): unknown {
  if (typeof v === 'string') return fill(v);
  if (Array.isArray(v)) return v.map((e) => fillDeep(e, fill));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, fillDeep(e, fill)]));
  return v;
}

function stringMap(v: unknown, at: Origin, out: Diagnostic[]): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isObject(v) || !Object.values(v).every((e) => typeof e === 'string')) {
    out.push(diagnosticAt(at, 'must be a map of strings'));
    return {};
  }
  return v as Record<string, string>;
}
