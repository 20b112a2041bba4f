import { Diagnostic } from '../diagnostics';
import { isObject } from '../model/kube';
import { ParsedDocument } from '../yaml/parse';

/**
 * The field ledger: every field path a user can write in an upstream CRD (../shared/crds) is
 * classified next to the reader that handles it. A meta-test walks the CRD schemas and fails on a
 * path no rule covers, so no field is ever dropped without a word.
 *
 * - honoured: rollgen does what the controller does (the note says how, when it is not obvious);
 * - warned: rollgen reads past it; the note says what rollgen does instead and what to do;
 * - refused: an error (exit 2); the note says why and what to use instead.
 */
export type FieldRule =
  | { readonly path: string; readonly status: 'honoured'; readonly subtree?: boolean; readonly note?: string }
  | { readonly path: string; readonly status: 'warned' | 'refused'; readonly subtree?: boolean; readonly note: string };

export type FieldStatus = FieldRule['status'];

/** Rule builders the ledgers are written with. */
export const honoured = (path: string, note?: string): FieldRule => ({
  path,
  status: 'honoured',
  ...(note ? { note } : {}),
});
export const subtree = (path: string, note: string): FieldRule => ({ path, status: 'honoured', subtree: true, note });
export const warned = (path: string, note: string): FieldRule => ({ path, status: 'warned', note });
export const warnedTree = (path: string, note: string): FieldRule => ({ path, status: 'warned', subtree: true, note });

export interface FieldLedger {
  /** What the ledger classifies, e.g. "Argo Rollout (argoproj.io/v1alpha1)". */
  readonly title: string;
  /** The CRD the meta-test walks: file under ../shared/crds and the served version. */
  readonly crd: { readonly file: string; readonly version: string };
  readonly rules: readonly FieldRule[];
}

/**
 * A rule's path names fields from the document root: `spec.strategy.canary.steps[].setWeight`.
 * `[]` stands for any item of a list; a rule for a list also covers its items.
 */
export function ruleFor(ledger: FieldLedger, pattern: string): FieldRule | undefined {
  const bare = pattern.endsWith('[]') ? pattern.slice(0, -2) : pattern;
  return ledger.rules.find((r) => r.path === pattern || r.path === bare);
}

/** The rule deciding a path: its own, or the nearest ancestor's that covers its subtree. */
export function classify(ledger: FieldLedger, pattern: string): FieldRule | undefined {
  const own = ruleFor(ledger, pattern);
  if (own) return own;
  for (let p = parentOf(pattern); p !== undefined; p = parentOf(p)) {
    const r = ruleFor(ledger, p);
    if (r) return r.subtree ? r : undefined;
  }
  return undefined;
}

/** The field names a ledger knows directly under `parent` (a pattern as ruleFor takes): what "did you mean" picks from. */
export function fieldsUnder(ledger: FieldLedger, parent: string): string[] {
  const prefix = parent === '' ? '' : `${parent}.`;
  const names = ledger.rules
    .map((r) => r.path.replace(/\[\]$/, ''))
    .filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('.'))
    .map((p) => p.slice(prefix.length));
  return [...new Set(names)];
}

function parentOf(pattern: string): string | undefined {
  if (pattern.endsWith('[]')) return pattern.slice(0, -2);
  const dot = pattern.lastIndexOf('.');
  return dot < 0 ? undefined : pattern.slice(0, dot);
}

type Path = (string | number)[];

/**
 * Every warned or refused field the document sets, each located at its key. A field set to false
 * or null is left alone: it asks for nothing. Fields no rule names are left to the schema.
 */
export function checkFields(doc: ParsedDocument, ledger: FieldLedger): Diagnostic[] {
  const out: Diagnostic[] = [];
  const walk = (value: unknown, path: Path, pattern: string): void => {
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, [...path, i], `${pattern}[]`));
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const childPattern = pattern === '' ? key : `${pattern}.${key}`;
      const rule = ruleFor(ledger, childPattern);
      if (!rule) continue;
      if (rule.status === 'honoured') {
        if (!rule.subtree) walk(child, [...path, key], childPattern);
        continue;
      }
      if (child === false || child === null) continue;
      out.push({
        ...doc.locate([...path, key]),
        message: `${dotted([...path, key])}: ${rule.note}`,
        severity: rule.status === 'refused' ? 'error' : 'warning',
      });
    }
  };
  const root = isObject(doc.value) ? doc.value : {};
  walk({ spec: root.spec }, [], '');
  return out;
}

function dotted(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
