import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic } from '../diagnostics';
import { KubeObject, isObject } from '../model/kube';
import { ParsedDocument } from '../yaml/parse';
import { K8S_KINDS } from '../spec/generated/k8s-kinds';
import type { CompiledValidator } from '../spec/generated';
import { describeSchemaErrors } from '../spec/validate-schema';

/** networking.istio.io/v1 is v1beta1 promoted with the same schema; the published models stop at v1beta1. */
const SAME_SCHEMA_AS: Readonly<Record<string, string>> = {
  'networking.istio.io/v1/VirtualService': 'networking.istio.io/v1beta1/VirtualService',
  'networking.istio.io/v1/DestinationRule': 'networking.istio.io/v1beta1/DestinationRule',
};

const loaded = new Map<string, CompiledValidator>();

/**
 * The precompiled validator of a Kubernetes, Istio or Gateway API kind, read from its own file the
 * first time a run meets that kind (never bundled, so start-up does not pay for kinds it does not see).
 */
function validatorFor(apiVersion: unknown, kind: unknown): CompiledValidator | undefined {
  const key = SAME_SCHEMA_AS[`${apiVersion}/${kind}`] ?? `${apiVersion}/${kind}`;
  if (!K8S_KINDS.includes(key)) return undefined;
  const cached = loaded.get(key);
  if (cached) return cached;
  const file = `${key.replace(/[./]/g, '-')}.js`;
  // Beside the bundle (dist/k8s, action/dist/k8s) or, from the sources, in generated/k8s.
  const candidates = [path.join(__dirname, 'k8s', file), path.join(__dirname, '..', 'spec', 'generated', 'k8s', file)];
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error(`the schema of ${key} is missing (${candidates[0]}); rebuild rollgen`);
  // In the CLI, the bundle's require (bin/load-bundle.js) loads it with the V8 code cache the build wrote.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const validate = require(found) as CompiledValidator;
  loaded.set(key, validate);
  return validate;
}

/**
 * Istio and Gateway API models can lag the CRD version a cluster runs (HTTPRoute rules[].name is
 * newer than the published model), so an unknown field there is a warning; in core kinds an error.
 */
const isCrd = (apiVersion: unknown) => /istio\.io|gateway\.networking\.k8s\.io/.test(String(apiVersion));

/** Workload and route manifests as the user wrote them, against the published schemas: unknown and mistyped fields, all at once. */
export function validateManifests(docs: readonly ParsedDocument[]): Diagnostic[] {
  return docs.flatMap((doc) => {
    const v = doc.value;
    if (!isObject(v)) return [];
    const validate = validatorFor(v.apiVersion, v.kind);
    if (!validate || validate(v)) return [];
    const name = isObject(v.metadata) ? ` ${String(v.metadata.name)}` : '';
    return describeSchemaErrors(validate.errors ?? [], doc).map((d): Diagnostic => {
      const lagging = isCrd(v.apiVersion) && d.message.includes('unknown field');
      return lagging
        ? {
            ...d,
            severity: 'warning',
            message: `${v.kind}${name}: ${d.message} (not in the published schema rollgen knows; check it against your CRD version)`,
          }
        : { ...d, message: `${v.kind}${name}: ${d.message}` };
    });
  });
}

/** What rollgen writes must be valid too: a failure here is a bug in rollgen, never written. */
export function checkRendered(objects: readonly KubeObject[]): void {
  const problems = objects.flatMap((o) => {
    const validate = validatorFor(o.apiVersion, o.kind);
    if (!validate || validate(o)) return [];
    return (validate.errors ?? [])
      .filter((e) => !(isCrd(o.apiVersion) && e.keyword === 'additionalProperties'))
      .map((e) => `${o.kind} ${o.metadata.name}${e.instancePath}: ${e.keyword} ${JSON.stringify(e.params)}`);
  });
  if (problems.length > 0) throw new Error(`rendered manifests fail their published schema:\n${problems.join('\n')}`);
}
