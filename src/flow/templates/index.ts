import type Handlebars from 'handlebars';
import { InputError } from '../../errors';
import { templateDiagnostic } from '../../app/pr-config-check';
import defaultBody from './body.hbs';
import defaultTitle from './title.hbs';
import { PrTemplateData } from '../template-data';

/** A template's text and where it came from, for error messages. */
export interface TemplateSource {
  readonly file: string;
  readonly text: string;
}

export interface PrTemplates {
  readonly title: (data: PrTemplateData) => string;
  readonly body: (data: PrTemplateData) => string;
}

/** One Handlebars environment (no helpers are registered) and each template text compiled once per process. */
let environment: typeof Handlebars | undefined;
const compiled = new Map<string, Handlebars.TemplateDelegate>();

export const DEFAULT_TEMPLATES = {
  title: { file: 'src/flow/templates/title.hbs', text: defaultTitle },
  body: { file: 'src/flow/templates/body.hbs', text: defaultBody },
} as const;

/**
 * Compiles the title and body templates (the defaults unless rollgen.yaml names others). Strict
 * mode turns a misspelt field into an error naming the template instead of an empty cell; no HTML
 * escaping, since the output is Markdown (and a title is shown as plain text).
 */
export function compileTemplates(
  title: TemplateSource = DEFAULT_TEMPLATES.title,
  body: TemplateSource = DEFAULT_TEMPLATES.body,
): PrTemplates {
  // Loaded here, not at start-up: only the PR flow renders these templates.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const hb = (environment ??= (require('handlebars') as typeof Handlebars).create());
  return {
    title: compileOne(hb, title, (s) => s.trim().split('\n')[0]),
    body: compileOne(hb, body, (s) => s.trimEnd() + '\n'),
  };
}

function compileOne(
  hb: typeof Handlebars,
  src: TemplateSource,
  finish: (s: string) => string,
): (data: PrTemplateData) => string {
  let render = compiled.get(src.text);
  if (!render) {
    try {
      hb.parse(src.text);
    } catch (e) {
      throw templateError(src, e);
    }
    render = hb.compile(src.text, { noEscape: true, strict: true });
    compiled.set(src.text, render);
  }
  const template = render;
  return (data) => {
    try {
      return finish(template(data));
    } catch (e) {
      throw templateError(src, e);
    }
  };
}

function templateError(src: TemplateSource, e: unknown): InputError {
  return new InputError([templateDiagnostic(src.file, e)]);
}
