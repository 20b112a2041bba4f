import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseYamlStream } from '../../src/yaml/parse';
import { serializeDocuments } from '../../src/yaml/serialize';
import { AppStatus, parseStatus, rolloutsDigest, rolloutsEdited, statusDocument } from '../../src/state/status';
import { runCli } from '../helpers/cli';

const drained: AppStatus = {
  app: 'echo',
  rollouts: [
    { name: 'demo', phase: 'Aborted', step: 0, steps: 4, stableRevision: 'aaa', canaryRevision: 'bbb', draining: 2 },
  ],
  files: ['deployment-echo.yaml'],
  history: [{ rollout: 'demo', action: 'abort', step: 0, revision: 'bbb' }],
};

const reparse = (doc: unknown) => parseStatus(parseYamlStream('s.yaml', serializeDocuments([doc])).documents[0].value);

test('the status file round-trips draining, with the digest of its rollouts', () => {
  const back = reparse(statusDocument(drained));
  expect(back).toEqual({ ...drained, rolloutsDigest: rolloutsDigest(drained.rollouts) });
  expect(rolloutsEdited(back as AppStatus)).toBe(false);
});

test('a rollout edited by hand (a step, a phase) no longer matches the recorded digest; a status without one is trusted', () => {
  const doc = statusDocument(drained) as { rollouts: Record<string, unknown>[] };
  for (const edit of [{ step: 3 }, { phase: 'Healthy' }, { canaryRevision: 'ccc' }]) {
    const edited = reparse({ ...doc, rollouts: [{ ...doc.rollouts[0], ...edit }] }) as AppStatus;
    expect(rolloutsEdited(edited)).toBe(true);
  }
  const older = reparse({
    ...doc,
    rolloutsDigest: undefined,
    rollouts: [{ ...doc.rollouts[0], step: 3 }],
  }) as AppStatus;
  expect(rolloutsEdited(older)).toBe(false);
});

test.each([
  [{ draining: '2' }, /draining must be the step number/],
  [{ draining: 0 }, /draining must be the step number/],
  [{ draining: 1.5 }, /draining must be the step number/],
  [{ step: 'two' }, /step and steps must be whole numbers/],
  [{ canaryRevision: 7 }, /canaryRevision must be a string/],
])('a rollout entry with %j is refused', (patch, message) => {
  const doc = statusDocument({ ...drained, rollouts: [{ ...drained.rollouts[0], ...patch } as never] });
  expect(reparse(doc)).toMatch(message);
});

test('advance on a status file with a broken draining fails with file:line and writes nothing', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-status-'));
  fs.cpSync(path.join(__dirname, '..', '..', 'examples', 'kruise-nginx', 'echoserver'), path.join(dir, 'src'), {
    recursive: true,
  });
  fs.writeFileSync(
    path.join(dir, 'rollgen.yaml'),
    'apps:\n  - source: src\n    output: out\n    name: echo\n    removal: two-commits\n',
  );
  for (let i = 0; i < 2; i++) expect((await runCli(['advance'], dir)).code).toBe(0);
  const file = path.join(dir, 'src', 'deployment.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/agnhost:[0-9.]+/, 'agnhost:2.54'));
  expect((await runCli(['advance'], dir)).code).toBe(0);
  expect((await runCli(['abort'], dir)).code).toBe(0);
  const statusFile = path.join(dir, 'out', 'rollgen-status.yaml');
  fs.writeFileSync(statusFile, fs.readFileSync(statusFile, 'utf8').replace(/draining: 1/, 'draining: "one"'));
  const snapshot = () =>
    fs.readdirSync(path.join(dir, 'out')).map((f) => [f, fs.readFileSync(path.join(dir, 'out', f), 'utf8')]);
  const before = snapshot();
  const r = await runCli(['advance'], dir);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(
    /out\/rollgen-status\.yaml:\d+:\d+: rollout rollouts-demo: draining must be the step number .*; restore the file from git history/,
  );
  expect(snapshot()).toEqual(before);
  fs.rmSync(dir, { recursive: true, force: true });
});
