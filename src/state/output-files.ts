import { createHash } from 'crypto';
import { parseDocument, YAMLSeq, isSeq } from 'yaml';
import { isPlainFileName } from '../model/file-name';
import { KubeObject } from '../model/kube';
import { AppStatus, STATUS_FILE, statusDocument } from './status';
import { serializeDocument, serializeValue } from '../yaml/serialize';

export interface RenderedFile {
  readonly path: string;
  readonly content: string;
}

export const KUSTOMIZATION_FILE = 'kustomization.yaml';
/** First line of every object file rollgen writes; it also tells rollgen which output files are its own. */
export const RENDERED_HEADER = '# Rendered by rollgen from the app source; edit the source, not this file.\n';

/**
 * One file per object: `<kind>-<name>.yaml`, namespace-prefixed only when names would collide.
 * `texts`: serializeValue of each object, when another thread made them.
 */
export function objectFiles(objects: readonly KubeObject[], texts?: readonly string[]): RenderedFile[] {
  const base = (o: KubeObject) => `${o.kind.toLowerCase()}-${o.metadata.name}`;
  const counts = new Map<string, number>();
  for (const o of objects) counts.set(base(o), (counts.get(base(o)) ?? 0) + 1);
  return objects.map((o, i) => {
    const name =
      (counts.get(base(o)) ?? 0) > 1 && o.metadata.namespace ? `${o.metadata.namespace}-${base(o)}` : base(o);
    // Names were checked at load (spec/object-checks.ts); this guards the file system against a gap there.
    if (!isPlainFileName(`${name}.yaml`)) throw new Error(`object name "${name}" is not a plain file name`);
    return { path: `${name}.yaml`, content: RENDERED_HEADER + (texts ? texts[i] : serializeValue(o)) };
  });
}

/**
 * The output kustomization: a new one lists our files; an existing one is edited in place with
 * the Document API so the user's comments and fields survive, and resources rollgen did not write stay.
 */
export function kustomizationFile(
  existing: string | undefined,
  files: readonly string[],
  previouslyOwned: readonly string[],
): RenderedFile {
  if (existing === undefined) {
    // A new one has nothing to keep: serialized as a value, without parsing a template for it.
    const kustomization = {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: [...files].sort(),
    };
    return { path: KUSTOMIZATION_FILE, content: serializeValue(kustomization) };
  }
  const doc = parseDocument(existing);
  const current = doc.get('resources');
  const kept = isSeq(current)
    ? (current as YAMLSeq).items
        .map((i) => String((i as { value?: unknown }).value ?? i))
        .filter((r) => !previouslyOwned.includes(r) && !files.includes(r))
    : [];
  const resources = [...kept, ...[...files].sort()];
  if (isSeq(current)) {
    const seq = current as YAMLSeq;
    seq.items = resources.map((r) => doc.createNode(r));
    seq.flow = false;
  } else {
    doc.set('resources', doc.createNode(resources));
  }
  return { path: KUSTOMIZATION_FILE, content: serializeDocument(doc) };
}

/** Short content digest of a file rollgen writes; the status file keeps one per object file to notice hand edits. */
export function contentDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The status file; `text`: serializeValue of statusDocument(status), when another thread made it. */
export function statusFile(status: AppStatus, text = serializeValue(statusDocument(status))): RenderedFile {
  return {
    path: STATUS_FILE,
    content: '# rollgen state; not listed in kustomization.yaml, so never applied.\n' + text,
  };
}
