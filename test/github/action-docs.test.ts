/** docs/github-action.md documents every input and output action.yml declares, with its default. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..', '..');
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
const docs = readFileSync(join(ROOT, 'docs', 'github-action.md'), 'utf8');

/** The rows of the Markdown table under `## heading`: first cell (without backticks) -> the other cells. */
function table(heading: string): Map<string, string[]> {
  const section = docs.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  if (!section) throw new Error(`docs/github-action.md has no "## ${heading}" section`);
  const rows = section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) =>
      l
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim()),
    );
  return new Map(rows.map(([name, ...rest]) => [name.replace(/`/g, ''), rest]));
}

test('every input of action.yml is a row of the Inputs table with its default, and no other', () => {
  const rows = table('Inputs');
  expect([...rows.keys()].sort()).toEqual(Object.keys(action.inputs).sort());
  for (const [name, input] of Object.entries(action.inputs as Record<string, { default?: string }>)) {
    const documented = rows.get(name)![0];
    // An empty default is described in words, e.g. "(all apps)".
    if (input.default) expect(`${name}: ${documented}`).toBe(`${name}: \`${input.default}\``);
    else expect(documented).toMatch(/^\(.+\)$/);
  }
});

test('every output of action.yml is a row of the outputs table, and no other', () => {
  expect([...table('Outputs and job summary').keys()].sort()).toEqual(Object.keys(action.outputs).sort());
});

test('the Permissions table grants what examples/github/rollgen.yml grants (checks: write: analyses write check runs)', () => {
  const workflow = parse(readFileSync(join(ROOT, 'examples', 'github', 'rollgen.yml'), 'utf8'));
  const section = docs.slice(docs.indexOf('### Permissions'), docs.indexOf('### Which token'));
  const granted = [...section.matchAll(/^\| (.+?) \|/gm)]
    .flatMap((m) => [...m[1].matchAll(/`([a-z-]+): ([a-z]+)`/g)])
    .map((m) => [m[1], m[2]]);
  expect(Object.fromEntries(granted)).toEqual(workflow.jobs.rollgen.permissions);
});
