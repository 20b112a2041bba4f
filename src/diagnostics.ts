/** A located problem in user input. Validation collects these instead of throwing on the first. */
export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

/** Where an object came from, so later stages can point at it without the YAML document. */
export interface Origin {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

export const unknownOrigin: Origin = { file: '<input>', line: 1, col: 1 };

export function diagnosticAt(origin: Origin, message: string, severity: Diagnostic['severity'] = 'error'): Diagnostic {
  return { file: origin.file, line: origin.line, col: origin.col, message, severity };
}

export function formatDiagnostic(d: Diagnostic): string {
  const tag = d.severity === 'warning' ? 'warning: ' : '';
  return `${printable(d.file)}:${d.line}:${d.col}: ${tag}${printable(d.message)}`;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Control characters escaped (`\n`, `\u001b`): a name from a directory or a YAML value cannot start
 * a new line in rollgen's output, so it cannot print a workflow command (`::error::`) or move the cursor.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Plain code-point order: the same in every locale (localeCompare depends on the machine's). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error');
}

/** Stable order: by file, then position, so output does not depend on rule order. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) => compareText(a.file, b.file) || a.line - b.line || a.col - b.col || compareText(a.message, b.message),
  );
}

/**
 * Stages in the order they ran, each sorted by place: a file that failed to parse (the cause) is
 * reported before the rule that then misses its object (the consequence), whatever the file names.
 */
export function orderByStage(...stages: readonly (readonly Diagnostic[])[]): Diagnostic[] {
  return stages.flatMap((s) => sortDiagnostics(s));
}
