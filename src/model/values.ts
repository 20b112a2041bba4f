import { isObject } from './kube';

/** Small readers over schema-validated JSON; they stay defensive because the schema is a separate stage. */
export const obj = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(obj(v))) out[k] = String(val);
  return out;
}
