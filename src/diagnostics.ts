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
  return `${d.file}:${d.line}:${d.col}: ${tag}${d.message}`;
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error');
}

/** Stable order: by file, then position, so output does not depend on rule order. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col || a.message.localeCompare(b.message),
  );
}
