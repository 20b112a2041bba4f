import type { RouteTemplateInput } from './route-template';

/** One Kruise `customNetworkRefs` entry: the object a template renders, in the rollout's namespace. */
export interface CustomRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
}

/**
 * Options of the custom generator: the refs are Kruise customNetworkRefs no other provider takes (index.ts inputs),
 * the templates from the app's RouteTemplate documents (generators/custom/route-template.ts). The core
 * validates them against `optionsSchema` before any generator function is called.
 */
export interface CustomOptions {
  readonly refs: readonly CustomRef[];
  readonly templates: readonly RouteTemplateInput[];
}

/** The schema lives in JSON so scripts/compile-schemas.mjs can precompile it (no ajv compile at start-up). */
export { default as optionsSchema } from './options.schema.json';

/** `traefik.io/v1alpha1` -> `traefik.io`; `v1` -> "" (the core group). */
export function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

/** Kruise picks a Lua script by group and kind, never by version or name; RouteTemplates are matched the same way. */
export function templateFor(ref: CustomRef, templates: readonly RouteTemplateInput[]): RouteTemplateInput | undefined {
  return templates.find((t) => t.kind === ref.kind && t.group === groupOf(ref.apiVersion));
}

export function describeKind(kind: string, group: string): string {
  return group ? `${kind}.${group}` : kind;
}
