import * as fs from 'fs';
import * as path from 'path';
import type Handlebars from 'handlebars';
import type { Diagnostic } from '../diagnostics';
import { findConfig, readConfig } from '../io/config';

/**
 * What `rollgen pr` would refuse in rollgen.yaml's `pr:` before it renders a PR: a template file that
 * is not there (at its field) or does not parse (at its line). `validate` reports them, so a broken
 * template is found before the flow runs. Without rollgen.yaml there is no PR flow: nothing to check.
 */
export function prConfigProblems(cwd: string, configOption?: string): Diagnostic[] {
  const file = configOption ? path.resolve(cwd, configOption) : findConfig(cwd);
  if (!file || !fs.existsSync(file)) return [];
  const pr = readConfig(file, cwd).pr;
  const missing = pr.templateProblems ?? [];
  const present = [pr.titleTemplate, pr.bodyTemplate].filter(
    (t): t is string => t !== undefined && (fs.statSync(t, { throwIfNoEntry: false })?.isFile() ?? false),
  );
  return [...missing, ...present.flatMap((t) => parseProblems(t, cwd))];
}

function parseProblems(file: string, cwd: string): Diagnostic[] {
  // Loaded only when a template is named: the other commands never need Handlebars.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const hb = require('handlebars') as typeof Handlebars;
  try {
    hb.parse(fs.readFileSync(file, 'utf8'));
    return [];
  } catch (e) {
    const d = templateDiagnostic(path.relative(cwd, file) || file, e);
    return [{ ...d, message: `${d.message}; fix it so that \`rollgen pr\` can render its PRs` }];
  }
}

/** A Handlebars parse or render error as a diagnostic at the line Handlebars names. */
export function templateDiagnostic(file: string, e: unknown): Diagnostic {
  const message = (e as Error).message.replace(/\s+/g, ' ').trim();
  const line = /line (\d+)/.exec(message);
  return { file, line: line ? Number(line[1]) : 1, col: 1, message: `PR template: ${message}`, severity: 'error' };
}
