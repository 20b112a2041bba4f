import { cloneJson } from '../../src/model/kube';
import type { HeaderModifier, RouteMatch } from '../../src/model/rollout';
import { crossMatches } from './matches';
import { backendRefs, Json, refersTo, ruleMatches } from './route';
import { Backends, canaryRef, mergeModifier } from './weights';

/** One source of canary rules: Kruise step matches, one Argo header route or one Argo mirror route. */
export interface CanarySource {
  /** Suffix for derived rule names (`<rule name>-<label>`). */
  readonly label: string;
  /** How problems name the source: "match", `header route "x"`, `mirror route "x"`. */
  readonly what: string;
  readonly conditions: readonly RouteMatch[];
  /** Set for a mirror route: the rule keeps its backends and mirrors this percentage to the canary. */
  readonly mirrorPercent?: number;
}

export interface DerivedRules {
  readonly rules: Json[];
  readonly problems: string[];
}

/**
 * Rules one source adds, one per stable rule (a rule with a backendRef to the stable Service):
 * a copy of that rule (filters, timeouts, retry ... kept) whose matches are its own crossed with the
 * source's conditions. A header rule routes only to the canary ref (a copy of the stable ref); a
 * mirror rule keeps the step's weighted backends (`weighted[i]`) and adds a RequestMirror filter.
 */
export function derivedRules(
  original: readonly Json[],
  weighted: readonly Json[][],
  b: Backends,
  source: CanarySource,
  modifier?: HeaderModifier,
): DerivedRules {
  const rules: Json[] = [];
  const problems: string[] = [];
  let first = true;
  original.forEach((rule, i) => {
    const stableRef = backendRefs(rule).find((r) => refersTo(r, b.stable, b.namespace));
    if (!stableRef) return;
    const crossed = crossMatches(ruleMatches(rule), source.conditions, first);
    first = false;
    problems.push(...crossed.problems);
    if (crossed.matches.length === 0) return;
    const copy = renamed(cloneJson(rule), source.label);
    copy.matches = crossed.matches;
    if (source.mirrorPercent !== undefined) {
      copy.backendRefs = weighted[i];
      copy.filters = [...filtersOf(copy), mirrorFilter(stableRef, b.canary, source.mirrorPercent)];
    } else {
      copy.backendRefs = [canaryRef(stableRef, b.canary)];
      if (modifier) copy.filters = mergeModifier(filtersOf(copy), modifier);
    }
    rules.push(ordered(copy));
  });
  return { rules, problems };
}

/**
 * RequestMirror to the canary Service on the stable ref's port. `percent` is left out at 100, the
 * default, so routes on Gateway API CRDs older than v1.3 (no percent field) still accept it.
 */
function mirrorFilter(stableRef: Json, canary: string, percent: number): Json {
  const { weight: _w, filters: _f, ...target } = cloneJson(stableRef);
  return {
    type: 'RequestMirror',
    requestMirror: { backendRef: { ...target, name: canary }, ...(percent !== 100 ? { percent } : {}) },
  };
}

function filtersOf(rule: Json): Json[] {
  return Array.isArray(rule.filters) ? (rule.filters as Json[]) : [];
}

/** Rule names are unique per route, so a copy of a named rule gets `<name>-<label>`. */
function renamed(rule: Json, label: string): Json {
  return typeof rule.name === 'string' ? { ...rule, name: `${rule.name}-${label}` } : rule;
}

/** name, matches, filters, backendRefs first (the order the Gateway API docs use), then the rest as written. */
function ordered(rule: Json): Json {
  const head = ['name', 'matches', 'filters', 'backendRefs'].filter((k) => rule[k] !== undefined);
  const keys = [...head, ...Object.keys(rule).filter((k) => !head.includes(k))];
  return Object.fromEntries(keys.map((k) => [k, rule[k]]));
}
