import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli';

/**
 * A new pod template committed while a rollout is promoting. The stable Deployment already runs the
 * promoted version, so that version is stable: the clean-up finishes (as Kruise finishes Finalising)
 * and the new revision starts at step 1 against it (as Argo canaries it against the promoted
 * ReplicaSet). Every command a message suggests on the way works; no pod runs the newest version
 * without a canary step.
 */
const ROOT = path.join(__dirname, '..', '..');
let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-promoting-new-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli([...args, 'src', 'out'], dir);
/** How canary workloads leave: with the routes (Argo CD) or a commit after them (Flux). */
let removal = 'one-commit';
const advance = () => cli('advance', '--removal', removal);
const status = () => parse(fs.readFileSync(path.join(dir, 'out', 'rollgen-status.yaml'), 'utf8')).rollouts[0];
const setImage = (file: string, from: RegExp, to: string) => {
  const full = path.join(dir, 'src', file);
  fs.writeFileSync(full, fs.readFileSync(full, 'utf8').replace(from, to));
};
/** Output files (status file aside) that run `image`. */
const filesRunning = (image: string) =>
  fs
    .readdirSync(path.join(dir, 'out'))
    .filter((f) => f !== 'rollgen-status.yaml' && fs.readFileSync(path.join(dir, 'out', f), 'utf8').includes(image));

/** The app adopted, given `first` and advanced until it promotes. */
async function promoting(source: string, file: string, image: RegExp, first: string): Promise<void> {
  fs.cpSync(path.join(ROOT, source), path.join(dir, 'src'), { recursive: true });
  for (let i = 0; i < 2; i++) expect((await advance()).code).toBe(0);
  setImage(file, image, first);
  for (let i = 0; i < 20 && status().phase !== 'Promoting'; i++) expect((await advance()).code).toBe(0);
  expect(status().phase).toBe('Promoting');
}

/** Commands the messages suggest while promoting: each points at advance, and says the new revision comes next. */
async function expectSuggestionsLeadToAdvance(): Promise<void> {
  for (const command of [['abort'], ['promote'], ['promote', '--full'], ['retry']]) {
    const r = await cli(...command);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/is promoting.*source has a newer one.*`rollgen advance src out` finishes the promotion/);
  }
  const view = await cli('status');
  expect(view.code).toBe(0);
  expect(view.stdout).toMatch(/Next: +rollgen advance src out +# cleans up.*starts the new revision at step 1/);
}

/** Clean-up (one or two commits) with the promoted version stable, then the new revision at step 1. */
async function expectCleanUpThenStart(promoted: string, newest: string): Promise<void> {
  const cleanUp = await advance();
  expect(cleanUp.code).toBe(0);
  expect(cleanUp.stdout).toMatch(/clean up; revision \w+ starts at step 1 next/);
  for (let i = 0; i < 3 && (status().phase !== 'Healthy' || status().draining !== undefined); i++)
    expect((await advance()).code).toBe(0);
  expect(status()).toMatchObject({ phase: 'Healthy', step: 0 });
  expect(filesRunning(newest)).toEqual([]);
  expect(filesRunning(promoted).length).toBeGreaterThan(0);
  const start = await advance();
  expect(start.code).toBe(0);
  expect(start.stdout).toContain('start -> step 1 of');
  expect(status()).toMatchObject({ phase: 'Progressing', step: 1 });
  expect(filesRunning(newest)).toEqual([expect.stringMatching(/-canary\.yaml$/)]);
}

test.each(['one-commit', 'two-commits'])(
  'GIVEN a Kruise rollout promoting 2.54 (%s removal) WHEN the source moves to 2.55 THEN advance cleans up with 2.54 stable and the next advance starts 2.55 at step 1',
  async (mode) => {
    removal = mode;
    await promoting('examples/kruise-nginx/echoserver', 'deployment.yaml', /agnhost:2\.53/, 'agnhost:2.54');
    setImage('deployment.yaml', /agnhost:2\.54/, 'agnhost:2.55');
    await expectSuggestionsLeadToAdvance();
    await expectCleanUpThenStart('agnhost:2.54', 'agnhost:2.55');
  },
);

test('GIVEN an Argo ping-pong rollout promoting WHEN the source changes THEN the clean-up swaps the Services first and the new revision starts after it', async () => {
  removal = 'one-commit';
  await promoting('test/golden/aws-alb/argo-ping-pong/source', 'rollout.yaml', /agnhost:[\w.]+/, 'agnhost:2.54');
  const side = status().pingPong;
  setImage('rollout.yaml', /agnhost:2\.54/, 'agnhost:2.55');
  await expectSuggestionsLeadToAdvance();
  await expectCleanUpThenStart('agnhost:2.54', 'agnhost:2.55');
  expect(status().pingPong).not.toBe(side);
});
