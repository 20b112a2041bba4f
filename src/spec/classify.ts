import { ParsedDocument } from '../yaml/parse';
import { Diagnostic } from '../diagnostics';
import { isObject } from '../model/kube';
import { SchemaId } from './validate-schema';

/** What a document is to rollgen: a spec it reads, or a manifest it renders or passes through. */
export type DocumentRole =
  | { readonly role: 'rollout'; readonly schema: SchemaId }
  | { readonly role: 'traffic-routing' }
  | { readonly role: 'request-coloring' }
  /** rollgen.dev RouteTemplate: read by the custom traffic provider, never emitted. */
  | { readonly role: 'route-template' }
  /** Argo AnalysisTemplate / ClusterAnalysisTemplate: read by rollgen's analysis, never emitted. */
  | { readonly role: 'analysis-template' }
  | { readonly role: 'ignored'; readonly reason: string }
  | { readonly role: 'manifest' };

const KRUISE = 'rollouts.kruise.io/';
const ARGO = 'argoproj.io/';
/** Argo kinds that only an Argo Rollouts controller reads; rollgen drops them from the output. */
const ARGO_CONTROLLER_KINDS = ['AnalysisRun', 'Experiment'];
const ANALYSIS_TEMPLATE_KINDS = ['AnalysisTemplate', 'ClusterAnalysisTemplate'];

export function classifyDocument(doc: ParsedDocument, out: Diagnostic[]): DocumentRole | undefined {
  const v = doc.value;
  if (!isObject(v) || typeof v.apiVersion !== 'string' || typeof v.kind !== 'string') {
    out.push({
      ...doc.origin,
      message: 'not a Kubernetes object: apiVersion and kind are required',
      severity: 'error',
    });
    return undefined;
  }
  if (!isObject(v.metadata) || typeof v.metadata.name !== 'string' || v.metadata.name === '') {
    out.push({ ...doc.locate(['metadata']), message: `${v.kind} has no metadata.name`, severity: 'error' });
    return undefined;
  }
  const { apiVersion, kind } = v;
  if (apiVersion.startsWith(KRUISE)) return classifyKruise(doc, apiVersion, kind, out);
  if (apiVersion === 'rollgen.dev/v1alpha1' && kind === 'RequestColoring') return { role: 'request-coloring' };
  if (apiVersion === 'argoproj.io/v1alpha1' && kind === 'Rollout') return { role: 'rollout', schema: 'argo-rollout' };
  if (apiVersion === 'rollgen.dev/v1alpha1' && kind === 'RouteTemplate') return { role: 'route-template' };
  if (apiVersion === 'argoproj.io/v1alpha1' && ANALYSIS_TEMPLATE_KINDS.includes(kind))
    return { role: 'analysis-template' };
  if (apiVersion.startsWith(ARGO) && ARGO_CONTROLLER_KINDS.includes(kind))
    return { role: 'ignored', reason: `${kind} is read only by the Argo Rollouts controller` };
  return { role: 'manifest' };
}

function classifyKruise(
  doc: ParsedDocument,
  apiVersion: string,
  kind: string,
  out: Diagnostic[],
): DocumentRole | undefined {
  if (kind === 'Rollout' && apiVersion === 'rollouts.kruise.io/v1alpha1')
    return { role: 'rollout', schema: 'kruise-rollout-v1alpha1' };
  if (kind === 'Rollout' && apiVersion === 'rollouts.kruise.io/v1beta1')
    return { role: 'rollout', schema: 'kruise-rollout-v1beta1' };
  if (kind === 'TrafficRouting' && apiVersion === 'rollouts.kruise.io/v1alpha1') return { role: 'traffic-routing' };
  out.push({
    ...doc.locate(['kind']),
    message: `unknown kind ${apiVersion} ${kind}; rollgen reads Rollout (v1alpha1, v1beta1) and TrafficRouting (v1alpha1)`,
    severity: 'error',
  });
  return undefined;
}
