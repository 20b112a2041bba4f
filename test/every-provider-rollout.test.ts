import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseDocument } from 'yaml';
import { runCli } from './helpers/cli';
import { treeHashes } from './helpers/tree-hash';
import { BuiltObject, hasKubectl, kustomizeBuildEach, UNMODELLED_GROUPS, validateObjects } from './helpers/schema';

/**
 * Every golden success case of every provider, Kruise and Argo alike, driven through a whole
 * rollout by the CLI: first deploy, a new pod template, every step, promotion and clean-up. Each
 * output must build with kustomize and validate (the last test builds them all, in batches);
 * the last state has no canary left.
 */
const GOLDEN = path.join(__dirname, 'golden');
/** Cases that advance nothing on purpose (a paused rollout holds; a disabled one is no rollout): test/fidelity.test.ts. */
const HOLDING = new Set(['core/kruise-paused', 'core/kruise-disabled']);
const CASES = fs.readdirSync(GOLDEN).flatMap((provider) =>
  fs
    .readdirSync(path.join(GOLDEN, provider))
    .filter((c) => fs.existsSync(path.join(GOLDEN, provider, c, 'expected')))
    .map((c) => `${provider}/${c}`)
    .filter((c) => !HOLDING.has(c)),
);

/** Gives every pod template in the source (Deployments, Argo inline templates) a new revision. */
function bumpTemplates(dir: string): number {
  let bumped = 0;
  for (const file of fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))) {
    const full = path.join(dir, file);
    const docs = fs
      .readFileSync(full, 'utf8')
      .split(/^---$/m)
      .map((text) => {
        const doc = parseDocument(text);
        const kind = doc.get('kind');
        if (
          (kind !== 'Deployment' && !(kind === 'Rollout' && doc.getIn(['spec', 'template']))) ||
          !doc.getIn(['spec', 'template'])
        )
          return text;
        doc.setIn(['spec', 'template', 'metadata', 'annotations', 'rollgen.test/revision'], '2');
        bumped++;
        return doc.toString();
      });
    fs.writeFileSync(full, docs.join('---\n'));
  }
  return bumped;
}

/** Each distinct output of every case, built with kustomize and validated by the last test, a few kubectl runs. */
const outputs: { readonly name: string; readonly advance: number; readonly dir: string }[] = [];
const caseDirs: string[] = [];
const BATCH = 40;
afterAll(() => caseDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** `<dir>/out` as a string of its files, to skip an output identical to the one before it. */
const snapshot = (out: string) => [...treeHashes(out)].map(([file, hash]) => `${file} ${hash}`).join('\n');

test.each(CASES)('%s: a whole rollout through the CLI', async (name) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-every-'));
  caseDirs.push(dir);
  fs.cpSync(path.join(GOLDEN, name, 'source'), path.join(dir, 'src'), { recursive: true });
  let advances = 0;
  let last = '';
  const advance = async () => {
    const r = await runCli(['advance', 'src', 'out'], dir);
    expect({ code: r.code, stderr: r.stderr.split('\n').filter((l) => l.includes('error')) }).toEqual({
      code: 0,
      stderr: [],
    });
    advances++;
    // Each step's output as it was, built and validated with every other case's at the end.
    const now = snapshot(path.join(dir, 'out'));
    if (now !== last) {
      const copy = path.join(dir, `advance-${advances}`);
      fs.cpSync(path.join(dir, 'out'), copy, { recursive: true });
      outputs.push({ name, advance: advances, dir: copy });
      last = now;
    }
    return r.stdout;
  };
  await advance();
  await advance();
  expect(bumpTemplates(path.join(dir, 'src'))).toBeGreaterThan(0);
  const log: string[] = [];
  for (let i = 0; i < 40 && !log.some((l) => l.startsWith('nothing to advance')); i++) log.push(await advance());
  const text = log.join('');
  expect(text).toMatch(/: start( \([a-z ]+\))? ->/);
  expect(text).toMatch(/: promote( \([a-z ]+\))? ->/);
  // With traffic routing Argo keeps the canary 30 s after the routes leave it (two-commit removal).
  expect(text).toMatch(/: clean up( ->|: routes to stable \(canary workloads next\))/);
  expect(text).toContain('nothing to advance');
  const left = fs.readdirSync(path.join(dir, 'out')).filter((f) => /^deployment-.*-canary\.yaml$/.test(f));
  expect(left).toEqual([]);
});

test('every output of every case builds with kustomize and validates against the published schemas', () => {
  if (!hasKubectl()) return;
  // Each case wrote at least its first deploy, a start, a promotion and a clean-up.
  expect(new Set(outputs.map((o) => o.name))).toEqual(new Set(CASES));
  expect(outputs.length).toBeGreaterThanOrEqual(4 * CASES.length);
  const failures: string[] = [];
  const built: BuiltObject[][] = [];
  // Batches of a few dozen: kustomize's time grows faster than the number of directories it builds.
  for (let i = 0; i < outputs.length; i += BATCH)
    built.push(...kustomizeBuildEach(outputs.slice(i, i + BATCH).map((o) => o.dir)));
  built.forEach((objects, i) => {
    const modelled = objects.filter((o) => !UNMODELLED_GROUPS.includes(o.apiVersion.split('/')[0]));
    try {
      expect(modelled.length).toBeGreaterThan(0);
      validateObjects(modelled);
    } catch (e) {
      failures.push(`${outputs[i].name}, output after advance ${outputs[i].advance}: ${(e as Error).message}`);
    }
  });
  expect(failures).toEqual([]);
});
