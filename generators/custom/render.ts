import { cloneJson, isObject, KubeObject } from '../../src/model/kube';
import { ResourceSet } from '../../src/model/resource-set';
import { hasCanaryRoutes, TrafficState } from '../../src/model/plan';
import { parseYamlStream, ParsedDocument } from '../../src/yaml/parse';
import type { GeneratorContext } from '../../src/contract/generator';
import { buildTemplateData, TemplateData } from './data';
import { templateLineOf } from './line-map';
import { CustomOptions, CustomRef, describeKind, groupOf, templateFor } from './options';
import { compileTemplate, CompiledTemplate, runTemplate, TemplateError } from './template';

/**
 * Every referenced object for one traffic state. With canary routes each is its template's output;
 * without (stable-only, clean-up, abort) it is the original as written, which is how Kruise restores
 * the stored original at the end. check() has proved every state renders, so a throw here is a bug.
 */
export function render(ctx: GeneratorContext<CustomOptions>, traffic: TrafficState): KubeObject[] {
  return ctx.options.refs.map((ref) => {
    const original = findRef(ctx.resources, ref, ctx.rollout.namespace);
    if (!original) throw new Error(`${ref.kind} "${ref.name}" not found in the app's manifests`);
    if (!hasCanaryRoutes(traffic)) return cloneJson(original);
    const input = templateFor(ref, ctx.options.templates);
    if (!input) throw new Error(`no RouteTemplate for ${describeKind(ref.kind, groupOf(ref.apiVersion))}`);
    return renderObject(
      compileTemplate(input),
      buildTemplateData(original, traffic, ctx.stableService, ctx.canaryService),
    );
  });
}

/** The referenced object, of the referenced group (ResourceSet keys ignore the group). */
export function findRef(resources: ResourceSet, ref: CustomRef, namespace?: string): KubeObject | undefined {
  const found = resources.find(ref.kind, ref.name, namespace)?.object;
  return found && groupOf(found.apiVersion) === groupOf(ref.apiVersion) ? found : undefined;
}

/**
 * Runs the template and re-parses its output with the project's YAML parser: it must be exactly one
 * object of the original's group, kind, name and namespace, or it would not replace the original.
 * @throws TemplateError at the template line that wrote the offending output line.
 */
export function renderObject(compiled: CompiledTemplate, data: TemplateData): KubeObject {
  const text = runTemplate(compiled, data);
  const at = (outputLine: number) => templateLineOf(compiled.input.template, data, outputLine);
  const parsed = parseYamlStream('<template output>', text);
  const bad = parsed.diagnostics[0];
  if (bad)
    throw new TemplateError(
      `template output is not valid YAML: ${bad.message.replace(/^invalid YAML: /, '')} (output line ${bad.line})`,
      at(bad.line),
    );
  const docs = parsed.documents;
  if (docs.length !== 1) {
    const line = docs.length === 0 ? 1 : at(docs[1].origin.line);
    throw new TemplateError(
      `template output has ${docs.length} YAML documents; it must be exactly one ${data.original.kind}`,
      line,
    );
  }
  const problem = identityProblem(docs[0], data.original);
  if (problem) throw new TemplateError(problem.message, at(problem.line));
  return docs[0].value as KubeObject;
}

/** The output must be the same object as the original: same group, kind, name and namespace. */
function identityProblem(doc: ParsedDocument, original: KubeObject): { message: string; line: number } | undefined {
  const v = doc.value;
  const meta = isObject(v) && isObject(v.metadata) ? v.metadata : {};
  const expected: [readonly string[], unknown, unknown][] = [
    [['kind'], isObject(v) ? v.kind : undefined, original.kind],
    [['metadata', 'name'], meta.name, original.metadata.name],
    [['metadata', 'namespace'], meta.namespace, original.metadata.namespace],
  ];
  for (const [path, actual, want] of expected) {
    if (actual !== want)
      return {
        message: `template output ${path.join('.')} is ${show(actual)}; it must be ${show(want)} like the original ${original.kind} "${original.metadata.name}"`,
        line: doc.locate(path).line,
      };
  }
  const apiVersion = isObject(v) && typeof v.apiVersion === 'string' ? v.apiVersion : '';
  if (groupOf(apiVersion) !== groupOf(original.apiVersion) || apiVersion === '') {
    return {
      message: `template output apiVersion is ${show(apiVersion || undefined)}; it must be in the group of ${original.apiVersion}`,
      line: doc.locate(['apiVersion']).line,
    };
  }
  return undefined;
}

function show(v: unknown): string {
  return v === undefined ? 'missing' : JSON.stringify(v);
}
