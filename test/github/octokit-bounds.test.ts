/**
 * Every GitHub request is bounded: a request the server never answers fails its attempt after the
 * configured timeout (shrunk by an option here, not measured), is retried like a 5xx, and ends in an
 * ScmError naming the call; a 429 carrying only retry-after is waited out and retried within the
 * throttling plugin's rules. Assertions count attempts and check state, never time.
 */
import { ScmError } from '../../src/errors';
import { Harness, startHarness } from './helpers';

let h: Harness;
afterEach(async () => {
  await h.fake.close();
  expect(h.fake.violations).toEqual([]);
});

const attempts = (method: string, route: string) =>
  h.fake.requests.filter((r) => r.method === method && r.route === `/repos/{owner}/{repo}${route}`).length;
/** Attempts as the client made them (a timed-out attempt may never reach the server's log). */
const clientAttempts = () => h.logLines.filter((l) => l.startsWith('debug: request {')).length;
const READ = { method: 'GET', route: '/repos/{owner}/{repo}/git/ref/{ref}' };

test('GIVEN GitHub never answers WHEN reading a branch THEN each attempt times out, 3 retries, then ScmError naming the call', async () => {
  h = await startHarness({}, { requestTimeoutMs: 200 }); // every attempt hangs: any timeout gives the same outcome
  h.fake.inject({ ...READ, status: 0, hang: true, times: 99 });
  const error = await h.scm.branchHead('main').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ScmError);
  expect((error as Error).message).toBe(
    'read branch main in octo/demo: could not reach GitHub: GitHub did not answer within 0.2 s',
  );
  expect(clientAttempts()).toBe(4);
});

test('GIVEN GitHub hangs once WHEN reading a branch THEN the retry gets the answer', async () => {
  h = await startHarness({}, { requestTimeoutMs: 3000 }); // ample for a loopback answer, even on a loaded machine
  h.fake.state.branches.set('main', 'a'.repeat(40));
  h.fake.inject({ ...READ, status: 0, hang: true });
  expect(await h.scm.branchHead('main')).toBe('a'.repeat(40));
  expect(clientAttempts()).toBe(2);
});

test('GIVEN a 429 with only retry-after WHEN reading THEN it waits as told and retries once, successfully', async () => {
  h = await startHarness();
  h.fake.state.branches.set('main', 'b'.repeat(40));
  h.fake.inject({ ...READ, status: 429, headers: { 'retry-after': '1' }, body: { message: 'Too Many Requests' } });
  expect(await h.scm.branchHead('main')).toBe('b'.repeat(40));
  expect(attempts('GET', '/git/ref/{ref}')).toBe(2);
});

test('GIVEN the 429 persists WHEN reading THEN the throttling bound (2 retries), then ScmError saying GitHub asked to wait', async () => {
  h = await startHarness();
  h.fake.inject({
    ...READ,
    status: 429,
    headers: { 'retry-after': '1' },
    body: { message: 'Too Many Requests' },
    times: 99,
  });
  const error = await h.scm.branchHead('main').catch((e: unknown) => e);
  expect(error).toMatchObject({ name: 'ScmError', status: 429 });
  expect((error as Error).message).toMatch(/^read branch main in octo\/demo: GitHub asked to wait 1 s \(retry-after\)/);
  expect(attempts('GET', '/git/ref/{ref}')).toBe(3);
});

test('GIVEN a 429 asking for an hour WHEN reading THEN no wait: ScmError after one attempt', async () => {
  h = await startHarness();
  h.fake.inject({ ...READ, status: 429, headers: { 'retry-after': '3600' }, body: { message: 'Too Many Requests' } });
  const error = await h.scm.branchHead('main').catch((e: unknown) => e);
  expect(error).toMatchObject({ name: 'ScmError', status: 429 });
  expect(attempts('GET', '/git/ref/{ref}')).toBe(1);
});
