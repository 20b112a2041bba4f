import { Diagnostic, diagnosticAt } from '../../src/diagnostics';
import type { SourceObject } from '../../src/model/resource-set';
import { suggestName } from '../../src/suggest';
import { optionOrigin } from '../_kit/option-origin';
import { DrTarget, Targets } from './options';
import type { Ctx } from './render';
import { isSubsetMode } from './roles';
import { asList, findIstio, shortHost, specOf } from './vs';

/** Each DestinationRule exists, has unique subset names, and holds the subsets the rollout names. */
export function checkDestinationRules(ctx: Ctx, t: Targets): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const dr of t.destinationRules) {
    const found = findIstio(ctx.resources, 'DestinationRule', dr);
    if (!found) {
      out.push(
        diagnosticAt(
          ctx.optionsOrigin,
          `${where(ctx)}: DestinationRule "${dr.name}"${dr.namespace ? ` in namespace ${dr.namespace}` : ''} (group ${dr.group}) not found in the app's manifests`,
        ),
      );
      continue;
    }
    const host = specOf(found.object).host;
    // Kruise adds the canary subset to this DestinationRule; on another host it would select no pod of this Service.
    if (t.dialect === 'kruise' && shortHost(host) !== ctx.stableService)
      out.push(
        diagnosticAt(
          found.origin,
          `${where(ctx)}: DestinationRule "${dr.name}" has host "${String(host)}", not the Service "${ctx.stableService}", so its canary subset would select none of its pods; point customNetworkRefs at the DestinationRule of ${ctx.stableService}`,
        ),
      );
    out.push(...duplicateSubsets(dr, found));
    if (t.dialect === 'argo') out.push(...missingSubsets(ctx, dr, found));
  }
  if (t.dialect === 'kruise' && isSubsetMode(ctx, t) && t.destinationRules.length === 0) {
    out.push(
      diagnosticAt(
        ctx.optionsOrigin,
        `${where(ctx)}: without a canary Service the canary is the "canary" subset of ${ctx.stableService}; add its DestinationRule to customNetworkRefs`,
      ),
    );
  }
  return out;
}

/**
 * Istio rejects a DestinationRule with two subsets of one name (its validation, since 1.22); older
 * Istio keeps one of them. Either way rollgen would label both, so one of them would route the
 * stable or canary share by labels the user did not mean: refused at the second name.
 */
function duplicateSubsets(dr: DrTarget, found: SourceObject): Diagnostic[] {
  const seen = new Map<string, number>();
  const out: Diagnostic[] = [];
  asList(specOf(found.object).subsets).forEach((s, i) => {
    const name = String(s.name);
    const first = seen.get(name);
    if (first === undefined) seen.set(name, i);
    else
      out.push(
        diagnosticAt(
          found.locate(['spec', 'subsets', i, 'name']),
          `DestinationRule "${dr.name}" has two subsets named "${name}" (subsets[${first}] and subsets[${i}]); Istio rejects duplicate subset names, rename or remove one`,
        ),
      );
  });
  return out;
}

/** Argo names the canary and stable subsets: a name the DestinationRule lacks is the rollout's typo, said at its field. */
function missingSubsets(ctx: Ctx, dr: DrTarget, found: SourceObject): Diagnostic[] {
  const names = asList(specOf(found.object).subsets).map((s) => String(s.name));
  const fields = [
    ['canarySubsetName', dr.canarySubset],
    ['stableSubsetName', dr.stableSubset ?? ''],
  ] as const;
  return fields
    .filter(([, subset]) => !names.includes(subset))
    .map(([field, subset]) => {
      const guess = suggestName(subset, names);
      const hint = guess
        ? `did you mean "${guess}"?`
        : `add it to the DestinationRule (its labels select the app's pods)`;
      return diagnosticAt(
        optionOrigin(ctx, 'destinationRule', field),
        `${where(ctx)}: ${field} "${subset}" is not a subset of DestinationRule "${dr.name}" (${found.origin.file}:${found.origin.line}), which has ${[...new Set(names)].map((n) => `"${n}"`).join(', ') || 'none'}; ${hint}`,
      );
    });
}

const where = (ctx: Ctx): string => `app ${ctx.app}, rollout ${ctx.rollout.name}`;
