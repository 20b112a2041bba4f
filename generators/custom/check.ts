import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import { hasCanaryRoutes, PlannedStep } from '../../src/model/plan';
import type { RouteTemplateInput } from './route-template';
import type { CheckContext } from '../../src/contract/generator';
import { buildTemplateData } from './data';
import { sourceOrigin } from './line-map';
import { CustomOptions, CustomRef, describeKind, groupOf, templateFor } from './options';
import { findRef, renderObject } from './render';
import { compileTemplate, parseTemplate, TemplateError } from './template';
import { suggestName } from '../../src/suggest';

type Ctx = CheckContext<CustomOptions>;

/**
 * Every ref has an object and a template, and the template renders a valid object for every step of
 * the rollout, so a broken template fails `plan` and `validate` at its own line, never mid-advance.
 */
export function check(ctx: Ctx): Diagnostic[] {
  // A mistyped kind sent the refs here instead of to their provider: that alone is the error.
  const mistyped = mistypedKinds(ctx);
  if (mistyped.length > 0) return mistyped;
  const steps = ctx.steps;
  const out: Diagnostic[] = [];
  for (const ref of ctx.options.refs) {
    const kind = describeKind(ref.kind, groupOf(ref.apiVersion));
    const original = findRef(ctx.resources, ref, ctx.rollout.namespace);
    const input = templateFor(ref, ctx.options.templates);
    if (!original)
      out.push(
        diagnosticAt(
          ctx.optionsOrigin,
          `customNetworkRefs: ${kind} "${ref.name}" not found in the app's manifests; add it or fix the ref`,
        ),
      );
    if (!input) {
      const hint = `add a rollgen.dev/v1alpha1 RouteTemplate with spec.target {apiVersion: ${ref.apiVersion}, kind: ${ref.kind}}`;
      out.push(
        diagnosticAt(
          ctx.optionsOrigin,
          `customNetworkRefs: no RouteTemplate renders ${kind} (for "${ref.name}"); ${hint}`,
        ),
      );
    }
    if (original && input) out.push(...checkTemplate(ctx, ref, input, steps));
  }
  return dedupe(out);
}

/** Refs naming no object whose name the app has under a kind spelled almost alike (VirtualServce). */
function mistypedKinds(ctx: Ctx): Diagnostic[] {
  return ctx.options.refs.flatMap((ref) => {
    if (findRef(ctx.resources, ref, ctx.rollout.namespace)) return [];
    const kinds = ctx.resources.items.filter((i) => i.object.metadata.name === ref.name).map((i) => i.object.kind);
    const meant = suggestName(ref.kind, kinds);
    if (!meant) return [];
    return [
      diagnosticAt(
        ctx.optionsOrigin,
        `customNetworkRefs: ${ref.kind} "${ref.name}" not found in the app's manifests; did you mean kind ${meant}? (the app has ${meant} "${ref.name}")`,
      ),
    ];
  });
}

function checkTemplate(
  ctx: Ctx,
  ref: CustomRef,
  input: RouteTemplateInput,
  steps: readonly PlannedStep[],
): Diagnostic[] {
  const original = findRef(ctx.resources, ref, ctx.rollout.namespace);
  if (!original) return [];
  try {
    const compiled = compileTemplate(input);
    const unread = unreadFeatures(ctx, input, steps);
    if (unread.length > 0) return unread;
    for (const step of steps.filter((s) => hasCanaryRoutes(s.traffic))) {
      const data = buildTemplateData(original, step.traffic, ctx.stableService, ctx.canaryService);
      try {
        renderObject(compiled, data);
      } catch (e) {
        if (!(e instanceof TemplateError)) throw e;
        return [templateDiagnostic(input, e, `step ${step.index}, ${ref.kind} "${ref.name}"`)];
      }
    }
    return [];
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return [templateDiagnostic(input, e)];
  }
}

/** `file:line:col` of the template line, and the line in the message in case the template is not a `|` block. */
function templateDiagnostic(input: RouteTemplateInput, e: TemplateError, rendering?: string): Diagnostic {
  const where = `RouteTemplate ${input.name}, template line ${e.line}${rendering ? `, rendering ${rendering}` : ''}`;
  return diagnosticAt(sourceOrigin(input, e.line, e.column), `${where}: ${e.message}`);
}

/**
 * The template is responsible for every condition of a step; one that never reads a feature a step
 * uses would drop it silently, which PRODUCT.md makes a plan-time error. Judged by the names the
 * template reads (`step.matches`, or `matches` inside `{{#with step}}`).
 */
function unreadFeatures(ctx: Ctx, input: RouteTemplateInput, steps: readonly PlannedStep[]): Diagnostic[] {
  const names = readNames(parseTemplate(input.template));
  const out: Diagnostic[] = [];
  for (const step of steps) {
    const t = step.traffic;
    const missing = [
      ...(t.weight > 0 && !names.has('weight') && !names.has('stableWeight') ? ['a weight (step.weight)'] : []),
      ...(t.matches.length > 0 && !names.has('matches') ? ['matches (step.matches)'] : []),
      ...(t.requestHeaderModifier && !names.has('requestHeaderModifier')
        ? ['a requestHeaderModifier (step.requestHeaderModifier)']
        : []),
    ];
    const origin = ctx.rollout.steps[step.index - 1].origin;
    for (const feature of missing) {
      out.push(
        diagnosticAt(
          origin,
          `app ${ctx.app}, rollout ${ctx.rollout.name}, step ${step.index}: provider custom cannot express ${feature}: RouteTemplate ${input.name} (${input.origin.file}:${input.origin.line}) never reads it`,
        ),
      );
    }
  }
  return out;
}

/** Every path segment the template reads. */
function readNames(node: unknown, out = new Set<string>()): Set<string> {
  if (typeof node !== 'object' || node === null) return out;
  const n = node as { type?: string; parts?: unknown };
  if (n.type === 'PathExpression' && Array.isArray(n.parts)) n.parts.forEach((p) => out.add(String(p)));
  for (const [key, child] of Object.entries(node)) {
    if (key === 'loc') continue;
    if (Array.isArray(child)) child.forEach((c) => readNames(c, out));
    else readNames(child, out);
  }
  return out;
}

/** Two refs of one kind share a template; its problem is reported once. */
function dedupe(list: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.file}:${d.line}:${d.col}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
