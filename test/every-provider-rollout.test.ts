import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseDocument } from 'yaml';
import { runCli } from './helpers/cli';
import { hasKubectl, kustomizeBuildEach, UNMODELLED_GROUPS, validateObjects } from './helpers/schema';

/**
 * Every golden success case of every provider, Kruise and Argo alike, driven through a whole
 * rollout by the CLI: first deploy, a new pod template, every step, promotion and clean-up. Each
 * output must build with kustomize and validate; the last state has no canary left.
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

/** Every output built with kustomize (one kubectl run for all of a case's steps) and validated. */
function checkOutputs(outs: readonly string[]): void {
  if (!hasKubectl()) return;
  kustomizeBuildEach(outs).forEach((built, step) => {
    const modelled = built.filter((o) => !UNMODELLED_GROUPS.includes(o.apiVersion.split('/')[0]));
    try {
      validateObjects(modelled);
    } catch (e) {
      throw new Error(`output after advance ${step + 1}: ${(e as Error).message}`);
    }
  });
}

test.each(CASES)('%s: a whole rollout through the CLI', async (name) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-every-'));
  fs.cpSync(path.join(GOLDEN, name, 'source'), path.join(dir, 'src'), { recursive: true });
  const outputs: string[] = [];
  const advance = async () => {
    const r = await runCli(['advance', 'src', 'out'], dir);
    expect({ code: r.code, stderr: r.stderr.split('\n').filter((l) => l.includes('error')) }).toEqual({
      code: 0,
      stderr: [],
    });
    // Each step's output as it was, built and validated together at the end.
    outputs.push(path.join(dir, `step-${outputs.length}`));
    fs.cpSync(path.join(dir, 'out'), outputs[outputs.length - 1], { recursive: true });
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
  expect(text).toMatch(/: clean up ->/);
  expect(text).toContain('nothing to advance');
  const left = fs.readdirSync(path.join(dir, 'out')).filter((f) => /^deployment-.*-canary\.yaml$/.test(f));
  expect(left).toEqual([]);
  checkOutputs(outputs);
  fs.rmSync(dir, { recursive: true, force: true });
});
