import { Diagnostic, Origin } from '../../src/diagnostics';
import { ParsedDocument } from '../../src/yaml/parse';
import { RolloutSpec } from '../../src/model/rollout';
import { obj, str } from '../../src/model/values';

/** The provider that reads RouteTemplates (generators/custom). */
const CUSTOM_PROVIDER = 'custom';

/**
 * A `rollgen.dev/v1alpha1 RouteTemplate` as the custom provider receives it in its options: plain
 * JSON data, so options validation and `plan --json` handle it like any other option.
 */
export interface RouteTemplateInput {
  readonly name: string;
  /** API group of the target kind ("" for the core group); the version is ignored, as in Kruise's Lua lookup. */
  readonly group: string;
  readonly kind: string;
  readonly template: string;
  /** Where template line 1 starts in the source file (col = its indentation + 1). */
  readonly origin: Origin;
  /** true when template line N is source line origin.line + N - 1 (a literal block scalar `|`); otherwise every line maps to origin. */
  readonly lineMapped: boolean;
}

/** A schema-valid RouteTemplate document -> its input. Pure. */
export function readRouteTemplate(doc: ParsedDocument): RouteTemplateInput {
  const v = obj(doc.value);
  const spec = obj(v.spec);
  const target = obj(spec.target);
  const apiVersion = str(target.apiVersion);
  const group = str(target.group) ?? (apiVersion?.includes('/') ? apiVersion.split('/')[0] : '');
  const block = doc.locateBlockText?.(['spec', 'template']);
  return {
    name: str(obj(v.metadata).name) ?? '',
    group,
    kind: str(target.kind) ?? '',
    template: str(spec.template) ?? '',
    origin: block ?? doc.locate(['spec', 'template']),
    lineMapped: block !== undefined,
  };
}

/** Two templates for one group+kind would make the choice depend on file order; both are reported. */
export function checkRouteTemplates(templates: readonly RouteTemplateInput[], out: Diagnostic[]): void {
  const first = new Map<string, RouteTemplateInput>();
  for (const t of templates) {
    const key = `${t.group}/${t.kind}`;
    const seen = first.get(key);
    if (!seen) first.set(key, t);
    else
      out.push({
        ...t.origin,
        message: `RouteTemplate ${t.name}: a second template for ${t.kind}${t.group ? `.${t.group}` : ''} (first: RouteTemplate ${seen.name} at ${seen.origin.file}:${seen.origin.line}); keep one`,
        severity: 'error',
      });
  }
}

/** Hands every RouteTemplate of the app to the rollout's custom providers as option `templates`. */
export function withRouteTemplates(spec: RolloutSpec, templates: readonly RouteTemplateInput[]): RolloutSpec {
  if (!spec.traffic.providers.some((p) => p.provider === CUSTOM_PROVIDER)) return spec;
  const providers = spec.traffic.providers.map((p) =>
    p.provider === CUSTOM_PROVIDER ? { ...p, options: { ...p.options, templates } } : p,
  );
  return { ...spec, traffic: { ...spec.traffic, providers } };
}
