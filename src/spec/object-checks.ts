import { Diagnostic } from '../diagnostics';
import { isObject } from '../model/kube';
import { ParsedDocument } from '../yaml/parse';

/**
 * The header fields every document must get right before rollgen builds anything from it: names
 * become file names and object names of their own (`<name>-canary`), labels become selectors,
 * replicas become pod counts. Kubernetes would refuse what fails here at apply time, after the
 * commit; rollgen refuses it at its location instead. Pure.
 */
export function checkObjectHeader(doc: ParsedDocument, out: Diagnostic[]): boolean {
  const before = out.length;
  const v = doc.value as { kind: string; metadata: Record<string, unknown>; spec?: unknown };
  const report = (path: (string | number)[], message: string) =>
    out.push({ ...doc.locate(path), message: `${v.kind} ${message}`, severity: 'error' });
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(v.kind))
    report(['kind'], `is not a kind: kinds are letters and digits (CamelCase)`);
  else checkName(v.kind, String(v.metadata.name), (m) => report(['metadata', 'name'], m));
  const ns = v.metadata.namespace;
  if (ns !== undefined && (typeof ns !== 'string' || !DNS_LABEL.test(ns) || ns.length > 63))
    report(['metadata', 'namespace'], `namespace ${show(ns)} must be a DNS label (lower-case a-z, 0-9, '-')`);
  checkStringMap(v.metadata, ['metadata'], 'labels', report, true);
  checkStringMap(v.metadata, ['metadata'], 'annotations', report, false);
  const spec = isObject(v.spec) ? v.spec : {};
  if (REPLICATED.has(v.kind) && spec.replicas !== undefined && !isReplicaCount(spec.replicas))
    report(['spec', 'replicas'], `spec.replicas ${show(spec.replicas)} must be a whole number from 0 to ${INT32_MAX}`);
  const template = isObject(spec.template) ? spec.template : {};
  if (isObject(template.metadata))
    checkStringMap(template.metadata, ['spec', 'template', 'metadata'], 'labels', report, true);
  const selector = isObject(spec.selector) ? spec.selector : {};
  checkStringMap(selector, ['spec', 'selector'], 'matchLabels', report, true);
  return out.length === before;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const INT32_MAX = 2147483647;
const REPLICATED = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'Rollout', 'CloneSet']);
/** Kinds whose names Kubernetes checks only as path segments (RBAC names such as `system:viewer`). */
const PATH_SEGMENT_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/** Service names must be DNS-1035 labels; generated names such as `<service>-canary` are checked by the same rule. */
export function serviceNameProblem(name: string): string | undefined {
  if (name.length > 63) return `is ${name.length} characters; Service names are at most 63`;
  if (!DNS_1035_LABEL.test(name)) return "must start with a letter and hold only a-z, 0-9 and '-' (a DNS-1035 label)";
  return undefined;
}

function checkName(kind: string, name: string, report: (message: string) => void): void {
  if (kind === 'Service') {
    const problem = serviceNameProblem(name);
    if (problem) report(`name ${show(name)} ${problem}`);
  } else if (PATH_SEGMENT_KINDS.has(kind)) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(name) || name.includes('..') || name.length > 253)
      report(`name ${show(name)} must be a single path segment of letters, digits, '.', '_', ':' and '-'`);
  } else if (!DNS_SUBDOMAIN.test(name) || name.length > 253) {
    report(`name ${show(name)} must be a DNS subdomain: lower-case a-z, 0-9, '-' and '.', at most 253 characters`);
  }
}

/** labels/annotations: a map of strings; label keys and values also in Kubernetes' label syntax. */
function checkStringMap(
  parent: Record<string, unknown>,
  at: (string | number)[],
  field: string,
  report: (path: (string | number)[], message: string) => void,
  label: boolean,
): void {
  const map = parent[field];
  if (map === undefined || map === null) return;
  if (!isObject(map)) return report([...at, field], `${field} must be a map of strings`);
  for (const [key, value] of Object.entries(map)) {
    const where = [...at, field, key];
    if (typeof value !== 'string') report(where, `${field} ${show(key)}: the value must be a string; quote it`);
    else if (label && (value.length > 63 || !LABEL_VALUE.test(value)))
      report(where, `label ${show(key)}: value ${show(value)} is not a label value (at most 63 of A-Z a-z 0-9 - _ .)`);
    if (label && !isLabelKey(key)) report(where, `label key ${show(key)} is not a valid label key`);
  }
}

function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const name = key.slice(slash + 1);
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  if (name.length > 63 || !LABEL_NAME.test(name)) return false;
  return prefix === undefined || (prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix));
}

function isReplicaCount(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= INT32_MAX;
}

/** A value quoted for a message, control characters escaped (JSON does both). */
function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}
