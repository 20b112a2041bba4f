import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { runCli } from './helpers/cli';

/**
 * docs/migration.md names the objects rollgen renders as `Kind/name`; each section names its
 * example. Every such name must be an object the renderer produces for that example at some
 * step, so the guide cannot drift from the names users will see.
 */
const ROOT = path.join(__dirname, '..');
const guide = fs.readFileSync(path.join(ROOT, 'docs', 'migration.md'), 'utf8');
const sections = guide
  .split(/^## /m)
  .slice(1)
  .map((text) => ({ title: text.split('\n')[0], text }));

/** Every `Kind/name` rollgen renders for an example, over all its steps. */
async function renderedNames(example: string): Promise<Set<string>> {
  const plan = JSON.parse((await runCli(['plan', example, '--json'], ROOT)).stdout);
  const steps = Math.max(...plan.apps[0].rollouts.map((r: { steps: unknown[] }) => r.steps.length));
  const names = new Set<string>();
  for (let step = 0; step <= steps; step++) {
    const r = await runCli(['render', example, '--step', String(step)], ROOT);
    expect(r.code).toBe(0);
    for (const d of parseAllDocuments(r.stdout)) {
      const o = d.toJS() as { kind: string; metadata: { name: string } };
      names.add(`${o.kind}/${o.metadata.name}`);
    }
  }
  return names;
}

const migrations = sections.filter((s) => s.title.startsWith('From '));

test('the guide has a section per controller, each naming an example that exists', () => {
  expect(migrations.map((s) => s.title)).toEqual(['From an Argo Rollout', 'From a Kruise Rollout']);
  for (const s of migrations) expect(fs.existsSync(path.join(ROOT, exampleOf(s.text)))).toBe(true);
});

test.each(migrations.map((s) => [s.title, s.text]))(
  '%s: every object it says rollgen renders is rendered',
  async (_, text) => {
    const rendered = await renderedNames(exampleOf(text));
    const mentioned = [...new Set([...text.matchAll(/`([A-Z][A-Za-z]+\/[a-z0-9][a-z0-9.-]*)`/g)].map((m) => m[1]))];
    expect(mentioned.length).toBeGreaterThan(3);
    expect(mentioned.filter((n) => !rendered.has(n))).toEqual([]);
    // The canary objects are named in the guide, so a renamed one fails here.
    for (const n of rendered) if (n.endsWith('-canary')) expect(mentioned).toContain(n);
  },
);

function exampleOf(text: string): string {
  const m = /\(\.\.\/(examples\/[\w.-]+\/[\w.-]+)\)/.exec(text);
  if (!m) throw new Error('section names no example as (../examples/GROUP/APP)');
  return m[1];
}
