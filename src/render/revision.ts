import { isObject } from '../model/kube';
import { sha256Hex } from './sha256';

/** Canonical JSON: keys sorted at every level, so formatting and key order never change a revision. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Short content hash of a pod template; it identifies a version across commits. */
export function templateRevision(template: unknown): string {
  return sha256Hex(canonicalJson(template)).slice(0, 10);
}
