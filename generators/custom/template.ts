import type HandlebarsModule from 'handlebars';
import type { RouteTemplateInput } from './route-template';

/**
 * A private Handlebars instance: helpers or partials registered on the global one (PR bodies, a
 * library user) must not leak into user route templates.
 */
let instance: typeof HandlebarsModule | undefined;
/** Created on first use, so commands that never meet a RouteTemplate start without Handlebars. */
function env(): typeof HandlebarsModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  instance ??= (require('handlebars') as typeof HandlebarsModule).create();
  return instance;
}

/**
 * strict: a missing field throws instead of rendering nothing; noEscape: the output is YAML, not
 * HTML; knownHelpersOnly without log and lookup leaves exactly if/unless/each/with, so a template
 * stays logic-less and cannot write to the console.
 */
export const COMPILE_OPTIONS = {
  strict: true,
  noEscape: true,
  knownHelpersOnly: true,
  knownHelpers: { log: false, lookup: false },
} as const;

/** Statement types that need something registered at run time, which a route template never has. */
const FORBIDDEN_STATEMENTS: Readonly<Record<string, string>> = {
  PartialStatement: 'partials ({{> name}})',
  PartialBlockStatement: 'partial blocks ({{#> name}})',
  Decorator: 'decorators ({{* name}})',
  DecoratorBlock: 'decorator blocks ({{#* name}})',
};

/** A problem at a template line (1-based) and, when known, a 0-based column inside that line. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

export interface CompiledTemplate {
  readonly input: RouteTemplateInput;
  readonly run: (data: object) => string;
}

interface HandlebarsCompilers {
  Compiler: new () => { compile(ast: hbs.AST.Program, options: object): unknown };
  JavaScriptCompiler: new () => {
    compile(environment: unknown, options: object, context: undefined, asObject: true): TemplateSpecification;
  };
}

/** Compiled per template text, so a run compiles each template once however many states it renders. */
const cache = new Map<string, { run: (data: object) => string } | TemplateError>();

/**
 * Parses and fully compiles a template now. Deterministic: the same text always gives the same function or the same error.
 * @throws TemplateError at the template line of a syntax error, a helper or a partial.
 */
export function compileTemplate(input: RouteTemplateInput): CompiledTemplate {
  let entry = cache.get(input.template);
  if (!entry) {
    entry = compileText(input.template);
    cache.set(input.template, entry);
  }
  if (entry instanceof TemplateError) throw entry;
  return { input, run: entry.run };
}

function compileText(text: string): { run: (data: object) => string } | TemplateError {
  try {
    const ast = parseTemplate(text);
    rejectForbidden(ast);
    const template = compileAst(ast);
    return { run: (data) => template(data) };
  } catch (e) {
    return toTemplateError(e, text);
  }
}

/** Parsed with whitespace control applied, as `compile` would. */
export function parseTemplate(text: string): hbs.AST.Program {
  return env().parse(text);
}

/**
 * Compiles a parsed template eagerly. `env.compile` would defer helper checks to the first render
 * and, given an AST, apply whitespace control a second time.
 */
export function compileAst(ast: hbs.AST.Program): HandlebarsTemplateDelegate {
  const compilers = env() as unknown as HandlebarsCompilers;
  const environment = new compilers.Compiler().compile(ast, COMPILE_OPTIONS);
  return env().template(new compilers.JavaScriptCompiler().compile(environment, COMPILE_OPTIONS, undefined, true));
}

/** Runs a compiled template. @throws TemplateError at the line of a missing field (strict mode). */
export function runTemplate(compiled: CompiledTemplate, data: object): string {
  try {
    return compiled.run(data);
  } catch (e) {
    throw toTemplateError(e, compiled.input.template);
  }
}

function rejectForbidden(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  const n = node as { type?: string; loc?: hbs.AST.SourceLocation };
  const what = n.type ? FORBIDDEN_STATEMENTS[n.type] : undefined;
  if (what && n.loc)
    throw new TemplateError(
      `${what} are not allowed in a route template; write the text inline`,
      n.loc.start.line,
      n.loc.start.column,
    );
  for (const [key, child] of Object.entries(node)) {
    if (key === 'loc') continue;
    if (Array.isArray(child)) child.forEach(rejectForbidden);
    else rejectForbidden(child);
  }
}

/** Handlebars errors carry `lineNumber`/`column`, or (parse errors) only "Parse error on line N:" in the message. */
export function toTemplateError(e: unknown, text: string): TemplateError {
  if (e instanceof TemplateError) return e;
  const err = e as { message?: string; lineNumber?: number; column?: number };
  const message = String(err.message ?? e);
  const lines = text.split('\n').length;
  const clamp = (line: number) => Math.min(Math.max(line, 1), lines);
  const parse = /^(Parse|Lexical) error on line (\d+)/.exec(message);
  if (parse) return new TemplateError(`template syntax error: ${describeParseError(message)}`, clamp(Number(parse[2])));
  const text0 = message.replace(/ - \d+:\d+$/, '').replace(/ in \[object Object\]$/, '');
  if (typeof err.lineNumber === 'number')
    return new TemplateError(`template error: ${text0}`, clamp(err.lineNumber), err.column);
  return new TemplateError(`template error: ${text0}`, 1);
}

/**
 * Jison's message is "Parse error on line N:", an excerpt, a caret line and "Expecting A, B, got C";
 * the token list is grammar jargon, so only a short one is kept and the excerpt says where.
 */
function describeParseError(message: string): string {
  const lines = message.split('\n');
  const last = lines[lines.length - 1];
  const m = /^Expecting (.*), got (.*)$/.exec(last);
  if (!m || lines.length < 4) return last.replace(/^Lexical error on line \d+\. /, '');
  const expected = m[1].split(', ');
  const near = lines[1].trim();
  return `unexpected ${m[2]} near "${near}"${expected.length <= 3 ? ` (expecting ${expected.join(' or ')})` : ''}`;
}
