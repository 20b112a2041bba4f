import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { accessibleStat } from './fs-access';
import { cachedBuild } from './kustomize-cache';

const ISTIO = '@kubernetes-models/istio/networking.istio.io';
const GATEWAY = '@kubernetes-models/gateway-api/gateway.networking.k8s.io';
const TRAEFIK = '@kubernetes-models/traefik';

/**
 * Published Kubernetes schemas (kubernetes-models) for the kinds rollgen renders: module and export.
 * Required on first use, untyped: their 500,000 lines of declarations would more than double the
 * type check, and a test file validating one kind need not load them all.
 */
const MODELS: Record<string, readonly [module: string, name: string]> = {
  'apps/v1/Deployment': ['kubernetes-models/apps/v1', 'Deployment'],
  'networking.k8s.io/v1/Ingress': ['kubernetes-models/networking.k8s.io/v1', 'Ingress'],
  'v1/Service': ['kubernetes-models/v1', 'Service'],
  'v1/ConfigMap': ['kubernetes-models/v1', 'ConfigMap'],
  'batch/v1/Job': ['kubernetes-models/batch/v1', 'Job'],
  'networking.istio.io/v1alpha3/VirtualService': [`${ISTIO}/v1alpha3/VirtualService`, 'VirtualService'],
  'networking.istio.io/v1alpha3/DestinationRule': [`${ISTIO}/v1alpha3/DestinationRule`, 'DestinationRule'],
  'networking.istio.io/v1alpha3/EnvoyFilter': [`${ISTIO}/v1alpha3/EnvoyFilter`, 'EnvoyFilter'],
  'networking.istio.io/v1beta1/VirtualService': [`${ISTIO}/v1beta1/VirtualService`, 'VirtualService'],
  'networking.istio.io/v1beta1/DestinationRule': [`${ISTIO}/v1beta1/DestinationRule`, 'DestinationRule'],
  'gateway.networking.k8s.io/v1/HTTPRoute': [`${GATEWAY}/v1/HTTPRoute`, 'HTTPRoute'],
  'gateway.networking.k8s.io/v1beta1/HTTPRoute': [`${GATEWAY}/v1beta1/HTTPRoute`, 'HTTPRoute'],
  'traefik.io/v1alpha1/TraefikService': [`${TRAEFIK}/traefik.io/v1alpha1/TraefikService`, 'TraefikService'],
  'traefik.io/v1alpha1/IngressRoute': [`${TRAEFIK}/traefik.io/v1alpha1/IngressRoute`, 'IngressRoute'],
  'traefik.containo.us/v1alpha1/TraefikService': [
    `${TRAEFIK}/traefik.containo.us/v1alpha1/TraefikService`,
    'TraefikService',
  ],
  'traefik.containo.us/v1alpha1/IngressRoute': [`${TRAEFIK}/traefik.containo.us/v1alpha1/IngressRoute`, 'IngressRoute'],
};

type Model = new (data: unknown) => { validate(): void };
const loaded = new Map<string, Model>();
function modelOf(key: string): Model | undefined {
  const where = MODELS[key];
  if (!where) return undefined;
  if (!loaded.has(key)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped on purpose (above)
    const mod = require(where[0]) as Record<string, Model>;
    loaded.set(key, mod[where[1]]);
  }
  return loaded.get(key);
}

/**
 * API groups with no published schema package (no kubernetes-models package for SMI, APISIX,
 * Ambassador / Emissary or App Mesh): kustomize builds them, but their schema is not checked.
 */
export const UNMODELLED_GROUPS = ['split.smi-spec.io', 'apisix.apache.org', 'getambassador.io', 'appmesh.k8s.aws'];

/** networking.istio.io/v1 is v1beta1 promoted with the same schema; the published models stop at v1beta1. */
const SAME_SCHEMA_AS: Record<string, string> = {
  'networking.istio.io/v1/VirtualService': 'networking.istio.io/v1beta1',
  'networking.istio.io/v1/DestinationRule': 'networking.istio.io/v1beta1',
};

/** An object of a built output, as kustomize printed it. */
export type BuiltObject = { apiVersion: string; kind: string; metadata: { name: string } };

/** Throws with the object's name when it does not validate; unknown kinds are reported, not skipped silently. */
export function validateAgainstSchemas(yamlText: string): string[] {
  return validateObjects(parseAllDocuments(yamlText).map((doc) => doc.toJS() as BuiltObject));
}

/** validateAgainstSchemas for objects already parsed; empty documents (null) are skipped. */
export function validateObjects(objects: readonly (BuiltObject | null)[]): string[] {
  const checked: string[] = [];
  for (const obj of objects) {
    if (!obj) continue;
    const alias = SAME_SCHEMA_AS[`${obj.apiVersion}/${obj.kind}`];
    const apiVersion = alias ?? obj.apiVersion;
    const Model = modelOf(`${apiVersion}/${obj.kind}`);
    if (!Model) throw new Error(`no published schema wired for ${obj.apiVersion} ${obj.kind}`);
    try {
      new Model({ ...obj, apiVersion }).validate();
    } catch (e) {
      throw new Error(`${obj.kind} ${obj.metadata.name}: ${(e as Error).message}`);
    }
    checked.push(`${obj.kind}/${obj.metadata.name}`);
  }
  return checked;
}

let kubectlPresent: boolean | undefined;
const KUBECTL = process.platform === 'win32' ? 'kubectl.exe' : 'kubectl';

/** Whether kubectl is on PATH (looked up, not started: a Go process start in every test file that asks). */
export function hasKubectl(): boolean {
  if (kubectlPresent === undefined) {
    kubectlPresent = (process.env.PATH ?? '')
      .split(path.delimiter)
      .some((dir) => accessibleStat(path.join(dir, KUBECTL), fs.constants.X_OK)?.isFile());
    if (!kubectlPresent) process.stderr.write('kubectl not found: skipping `kubectl kustomize` build checks\n');
  }
  return kubectlPresent;
}

/** Builds a directory with the real kustomize in kubectl, as Argo CD and Flux would. */
export function kustomizeBuild(dir: string): string {
  return cachedBuild(dir, () => execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' }));
}

/**
 * Builds many output directories with one `kubectl kustomize` instead of one each (a Go process
 * start per step of every case was half the time of the whole-rollout tests): each directory is
 * copied under a kustomization of its own that puts its objects in a namespace of their own, so
 * the same objects from different steps do not collide, and the combined build is split back by
 * namespace. Returns each directory's built objects (namespace as the batch set it). A directory
 * that does not build fails the call, naming its copy `sNNN/out`.
 */
export function kustomizeBuildEach(dirs: readonly string[]): BuiltObject[][] {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-kbatch-'));
  try {
    const names = dirs.map((dir, i) => {
      const step = `s${String(i).padStart(3, '0')}`;
      fs.cpSync(dir, path.join(root, step, 'out'), { recursive: true });
      const kustomization = `resources:\n  - out\nnamespace: ${BATCH}-${step}\n`;
      fs.writeFileSync(path.join(root, step, 'kustomization.yaml'), kustomization);
      return step;
    });
    fs.writeFileSync(path.join(root, 'kustomization.yaml'), `resources:\n${names.map((n) => `  - ${n}\n`).join('')}`);
    const built = parseAllDocuments(execFileSync('kubectl', ['kustomize', root], { encoding: 'utf8' }));
    const byStep = new Map<string, BuiltObject[]>(names.map((n) => [`${BATCH}-${n}`, []]));
    for (const doc of built) {
      const ns = String(doc.getIn(['metadata', 'namespace']));
      const list = byStep.get(ns);
      if (!list)
        throw new Error(
          `kustomizeBuildEach: ${doc.get('kind')} ${doc.getIn(['metadata', 'name'])} has no batch namespace`,
        );
      list.push(doc.toJS() as BuiltObject);
    }
    return names.map((n) => byStep.get(`${BATCH}-${n}`)!);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const BATCH = 'rollgen-batch';
