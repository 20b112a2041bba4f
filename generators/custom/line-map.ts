import type { Origin } from '../../src/diagnostics';
import type { RouteTemplateInput } from './route-template';
import { compileAst, parseTemplate } from './template';

/** Never in YAML text (the YAML spec forbids NUL), so it cannot be confused with template or data text. */
const MARK = '\u0000';
// eslint-disable-next-line no-control-regex -- NUL is the chosen marker
const MARK_PATTERN = /\u0000(\d+)\u0000/;

/**
 * The template line that wrote output line `outputLine` (1-based): the line holding the template
 * newline that ends it. Only used to place an error, so it renders the template a second time with
 * every template newline tagged by its line number; tagging adds no newline, so output lines
 * correspond one to one. A line ended by a newline from the data maps to the next tagged line.
 */
export function templateLineOf(text: string, data: object, outputLine: number): number {
  const ast = parseTemplate(text);
  tagNewlines(ast);
  const tagged = compileAst(ast)(data).split('\n');
  for (let i = Math.max(outputLine, 1) - 1; i < tagged.length; i++) {
    const m = MARK_PATTERN.exec(tagged[i]);
    if (m) return Number(m[1]);
  }
  return text.split('\n').length;
}

/**
 * Whitespace control only trims a content statement's ends (standalone lines, `~`), so its value is
 * a slice of the original text starting after a whitespace-only prefix; newline j of the value is
 * on the template line of the same character in the original.
 */
function tagNewlines(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  const n = node as Partial<hbs.AST.ContentStatement>;
  if (n.type === 'ContentStatement' && typeof n.value === 'string' && typeof n.original === 'string' && n.loc) {
    n.value = tagContent(n.value, n.original, n.loc.start.line);
    return;
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === 'loc') continue;
    if (Array.isArray(child)) child.forEach(tagNewlines);
    else tagNewlines(child);
  }
}

function tagContent(value: string, original: string, startLine: number): string {
  const skipped = trimmedPrefix(value, original);
  let out = '';
  for (let j = 0; j < value.length; j++) {
    if (value[j] === '\n') out += `${MARK}${startLine + countNewlines(original.slice(0, skipped + j))}${MARK}`;
    out += value[j];
  }
  return out;
}

function trimmedPrefix(value: string, original: string): number {
  const maxSkip = original.length - original.trimStart().length;
  for (let k = 0; k <= maxSkip; k++) if (original.startsWith(value, k)) return k;
  return 0;
}

function countNewlines(s: string): number {
  let n = 0;
  for (const c of s) if (c === '\n') n++;
  return n;
}

/**
 * Where template line `line` (and 0-based column) is in the source file. A template not written as a
 * literal block scalar has no line-for-line position, so its lines all point at the template and
 * the message says the line.
 */
export function sourceOrigin(t: RouteTemplateInput, line: number, column?: number): Origin {
  if (!t.lineMapped) return t.origin;
  return { file: t.origin.file, line: t.origin.line + line - 1, col: t.origin.col + (column ?? 0) };
}
