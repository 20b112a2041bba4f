/** Shared GIVEN helpers for the plan and normalizer tests: small YAML strings -> ParsedDocument -> RolloutSpec. */
import { providerInputs } from '../../generators/registry';
import { normalizeArgo } from '../../src/spec/argo';
import { normalizeKruise } from '../../src/spec/kruise';
import { NormalizeResult } from '../../src/spec/providers';
import { ParsedDocument, parseYamlStream } from '../../src/yaml/parse';

export const FILE = 'apps/echoserver/rollout.yaml';

/** Parses exactly one YAML document and fails loudly on anything else. */
export function parseOne(text: string, file = FILE): ParsedDocument {
  const { documents, diagnostics } = parseYamlStream(file, text);
  if (diagnostics.length > 0) throw new Error(`fixture does not parse: ${JSON.stringify(diagnostics)}`);
  if (documents.length !== 1) throw new Error(`fixture has ${documents.length} documents, expected 1`);
  return documents[0];
}

/** Parses a multi-document stream (an app). */
export function parseAll(text: string, file = FILE): readonly ParsedDocument[] {
  const { documents, diagnostics } = parseYamlStream(file, text);
  if (diagnostics.length > 0) throw new Error(`fixture does not parse: ${JSON.stringify(diagnostics)}`);
  return documents;
}

export const kruise = (text: string): NormalizeResult => normalizeKruise(parseOne(text), providerInputs);
export const argo = (text: string): NormalizeResult => normalizeArgo(parseOne(text), providerInputs);

/** 1-based line of the `nth` occurrence of `needle`, so expectations follow the fixture text. */
export function lineOf(text: string, needle: string, nth = 1): number {
  let index = -1;
  for (let i = 0; i < nth; i++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`fixture has no occurrence ${nth} of ${needle}`);
  }
  return text.slice(0, index).split('\n').length;
}

export function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((l) => (l.trim() === '' ? l : pad + l))
    .join('\n');
}

/** The nginx trafficRoutings block both Kruise builders use unless told otherwise. */
const DEFAULT_ROUTING = `trafficRoutings:
- service: echoserver
  ingress:
    classType: nginx
    name: echoserver`;

/** A Kruise v1alpha1 Rollout; `steps` is the YAML list under canary.steps, written flush left. */
export function kruiseV1alpha1(
  steps: string,
  opts: { annotations?: string; canaryExtra?: string; routing?: string | null } = {},
): string {
  const routing = opts.routing === null ? '' : (opts.routing ?? DEFAULT_ROUTING);
  return `apiVersion: rollouts.kruise.io/v1alpha1
kind: Rollout
metadata:
  name: rollouts-demo
${opts.annotations ? `  annotations:\n${indent(opts.annotations, 4)}\n` : ''}spec:
  objectRef:
    workloadRef:
      apiVersion: apps/v1
      kind: Deployment
      name: echoserver
  strategy:
    canary:
      steps:
${indent(steps, 6)}
${routing ? indent(routing, 6) + '\n' : ''}${opts.canaryExtra ? indent(opts.canaryExtra, 6) + '\n' : ''}`;
}

/** A Kruise v1beta1 Rollout; `steps` is the YAML list under canary.steps, written flush left. */
export function kruiseV1beta1(steps: string, opts: { canaryExtra?: string; routing?: string | null } = {}): string {
  const routing = opts.routing === null ? '' : (opts.routing ?? DEFAULT_ROUTING);
  return `apiVersion: rollouts.kruise.io/v1beta1
kind: Rollout
metadata:
  name: rollouts-demo
  namespace: default
spec:
  workloadRef:
    apiVersion: apps/v1
    kind: Deployment
    name: echoserver
  strategy:
    canary:
      steps:
${indent(steps, 6)}
${routing ? indent(routing, 6) + '\n' : ''}${opts.canaryExtra ? indent(opts.canaryExtra, 6) + '\n' : ''}`;
}

/** An Argo Rollout with workloadRef; `steps` is the YAML list under canary.steps, written flush left. */
export function argoRollout(
  steps: string,
  opts: { replicas?: number | null; routing?: string | null; canaryExtra?: string } = {},
): string {
  const routing =
    opts.routing === null
      ? ''
      : (opts.routing ??
        `trafficRouting:
  nginx:
    stableIngress: echoserver`);
  const replicas = opts.replicas === null ? '' : `  replicas: ${opts.replicas ?? 10}\n`;
  return `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: echoserver-rollout
spec:
${replicas}  workloadRef:
    apiVersion: apps/v1
    kind: Deployment
    name: echoserver
  strategy:
    canary:
      stableService: echoserver
      steps:
${indent(steps, 6)}
${routing ? indent(routing, 6) + '\n' : ''}${opts.canaryExtra ? indent(opts.canaryExtra, 6) + '\n' : ''}`;
}
