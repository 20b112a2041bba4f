import * as path from 'path';
import { Diagnostic, Origin } from '../diagnostics';
import { isAppName } from '../model/app-name';
import { isObject } from '../model/kube';
import type { AppConfig } from './config';
import { confinePath, confinePattern, outputOverlaps, pathConfiner, realPaths } from './confine';

type Locate = (path: readonly (string | number)[]) => Origin;

/**
 * Expands each app entry of rollgen.yaml only when its paths as written stay in the repository,
 * then checks every expanded source and output through links, and that outputs and sources are apart.
 */
export function confineApps(
  root: string,
  entries: readonly Record<string, unknown>[],
  locate: Locate,
  out: Diagnostic[],
  expand: (entry: Record<string, unknown>, index: number) => AppConfig[],
  sharedSource?: string,
): AppConfig[] {
  const real = realPaths();
  const confine = pathConfiner(root, real);
  const apps = entries.flatMap((e, i) => {
    const at = (field: string) => locate(['apps', i, field]);
    const written = [
      ...confinePattern(root, String(e.source), 'source', at('source')),
      ...confinePattern(root, String(e.output), 'output', at('output')),
    ];
    out.push(...written);
    if (written.length > 0) return [];
    const expanded = expand(e, i);
    for (const a of expanded.filter((x) => !isAppName(x.name)))
      out.push({
        ...at('source'),
        message: `app name ${JSON.stringify(a.name)} (from its directory) is not a DNS label; rename the directory or set name:`,
        severity: 'error',
      });
    for (const a of expanded)
      out.push(
        // Located only on a problem: finding a field in rollgen.yaml costs more than the check.
        ...confine(a.source, 'source', () => at('source')),
        ...confine(a.output, 'output', () => at('output')),
      );
    return expanded;
  });
  // A shared directory rollgen reads (analysisTemplates) is a source too: no output may overlap it.
  const shared = sharedSource ? [{ name: '(analysisTemplates)', source: sharedSource }] : [];
  for (const message of outputOverlaps([...apps, ...shared], real))
    out.push({ ...locate(['apps']), message, severity: 'error' });
  return apps;
}

/** Other paths rollgen.yaml names and rollgen reads (PR templates, shared AnalysisTemplates): they too stay in the repository. */
export function confineNamedPaths(root: string, config: Record<string, unknown>, locate: Locate): Diagnostic[] {
  const pr = (config.pr ?? {}) as Record<string, unknown>;
  const kubeconfig = (v: unknown) => (isObject(v) && isObject(v.aws) ? v.aws.kubeconfig : undefined);
  const apps = Array.isArray(config.apps) ? config.apps : [];
  const named: [readonly (string | number)[], unknown][] = [
    [['pr', 'titleTemplate'], pr.titleTemplate],
    [['pr', 'bodyTemplate'], pr.bodyTemplate],
    [['analysisTemplates'], config.analysisTemplates],
    // A kubeconfig CI writes into the checkout (never committed); outside it, name it in KUBECONFIG.
    [['verify', 'aws', 'kubeconfig'], kubeconfig(config.verify)],
    ...apps.map((e, i): [readonly (string | number)[], unknown] => [
      ['apps', i, 'verify', 'aws', 'kubeconfig'],
      isObject(e) ? kubeconfig(e.verify) : undefined,
    ]),
  ];
  return named.flatMap(([at, written]) => {
    if (typeof written !== 'string') return [];
    const field = at.filter((x) => typeof x === 'string').join('.');
    const lexical = confinePattern(root, written, field, locate(at));
    return lexical.length > 0 ? lexical : confinePath(root, path.resolve(root, written), field, locate(at));
  });
}
