/**
 * The Octokit ScmClient when GitHub misbehaves: server errors, rate limits, wrong base path,
 * hostile error bodies. Back-off runs at 1 ms per second (startHarness), so retry-after waits are
 * real but tiny; assertions count attempts and check state, never time.
 */
import { ScmError } from '../../src/errors';
import { createGitHubScm } from '../../src/scm/github';
import { redact } from '../../src/scm/github/errors';
import { createOctokit } from '../../src/scm/github/octokit';
import { Harness, mainHead, startHarness, treeOf } from './helpers';

let h: Harness;
afterEach(async () => {
  await h.fake.close();
  expect(h.fake.violations).toEqual([]);
});

const BRANCH = 'rollgen/echoserver/step-1';
const SECONDARY = {
  message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
  documentation_url: 'https://docs.github.com/rest',
};

function commit(message = 'step 1') {
  const parent = mainHead(h.fake);
  return h.scm.commitToBranch({
    branch: BRANCH,
    parent,
    parentTree: treeOf(h.fake, parent),
    message,
    changes: [{ path: 'deploy/a.yaml', content: message }],
  });
}

const attempts = (method: string, route: string) =>
  h.fake.requests.filter((r) => r.method === method && r.route === `/repos/{owner}/{repo}${route}`).length;

describe('server errors', () => {
  beforeEach(async () => (h = await startHarness()));

  test('GIVEN two 502s on POST git/commits WHEN committing THEN the client retries and the commit lands', async () => {
    h.fake.inject({ method: 'POST', route: '/repos/{owner}/{repo}/git/commits', status: 502, times: 2 });
    const sha = await commit();
    expect(attempts('POST', '/git/commits')).toBe(3);
    expect(h.fake.state.branches.get(BRANCH)).toBe(sha);
  });

  test('GIVEN POST git/commits keeps failing WHEN updating an existing branch THEN ScmError after 3 retries and the branch has not moved', async () => {
    const before = await commit('first');
    h.fake.resetLog();
    h.fake.inject({ method: 'POST', route: '/repos/{owner}/{repo}/git/commits', status: 500, times: 99 });
    const error = await commit('second').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScmError);
    expect(error).toMatchObject({ status: 500, action: `commit 1 file(s) to branch ${BRANCH} in octo/demo` });
    expect(attempts('POST', '/git/commits')).toBe(4);
    expect(h.fake.log().filter((l) => l.includes('/git/refs'))).toEqual([]);
    expect(h.fake.state.branches.get(BRANCH)).toBe(before);
  });

  test('GIVEN nothing listens at the API URL WHEN reading a branch THEN ScmError "could not reach GitHub" without a status', async () => {
    await h.fake.close();
    const error = await h.scm.branchHead('main').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScmError);
    expect(error).toMatchObject({ status: undefined });
    expect((error as Error).message).toMatch(/^read branch main in octo\/demo: could not reach GitHub: /);
  });
});

describe('rate limits', () => {
  beforeEach(async () => (h = await startHarness()));
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  test('GIVEN a secondary rate limit with retry-after WHEN opening a PR THEN it waits and retries, and the PR is opened once', async () => {
    await commit();
    h.fake.inject({
      method: 'POST',
      route: '/repos/{owner}/{repo}/pulls',
      status: 403,
      headers: { 'retry-after': '2' },
      body: SECONDARY,
    });
    const pr = await h.scm.createPull({ branch: BRANCH, base: 'main', title: 't', body: '', labels: [] });
    expect(pr.number).toBe(1);
    expect(attempts('POST', '/pulls')).toBe(2);
    expect(h.fake.state.pulls.size).toBe(1);
  });

  test('GIVEN the secondary limit persists WHEN opening a PR THEN 2 retries, then ScmError saying so', async () => {
    await commit();
    h.fake.inject({
      method: 'POST',
      route: '/repos/{owner}/{repo}/pulls',
      status: 429,
      headers: { 'retry-after': '1' },
      body: SECONDARY,
      times: 99,
    });
    const error = await h.scm
      .createPull({ branch: BRANCH, base: 'main', title: 't', body: '', labels: [] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ScmError', status: 429 });
    expect((error as Error).message).toMatch(
      /^open a PR from rollgen\/echoserver\/step-1 into main in octo\/demo: GitHub's secondary rate limit held/,
    );
    expect(attempts('POST', '/pulls')).toBe(3);
  });

  test('GIVEN a secondary limit asking for an hour WHEN reading THEN no wait at all: ScmError after one attempt', async () => {
    h.fake.inject({
      method: 'GET',
      route: '/repos/{owner}/{repo}/git/ref/{ref}',
      status: 403,
      headers: { 'retry-after': '3600' },
      body: SECONDARY,
    });
    await expect(h.scm.branchHead('main')).rejects.toThrow(/secondary rate limit/);
    expect(attempts('GET', '/git/ref/{ref}')).toBe(1);
  });

  test('GIVEN the primary limit is used up and resets in a second WHEN reading THEN one retry succeeds', async () => {
    h.fake.inject({
      method: 'GET',
      route: '/repos/{owner}/{repo}/git/ref/{ref}',
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(nowSeconds() + 1) },
      body: { message: 'API rate limit exceeded for installation ID 1.' },
    });
    expect(await h.scm.branchHead('main')).toBe(mainHead(h.fake));
    expect(attempts('GET', '/git/ref/{ref}')).toBe(2);
  });

  test('GIVEN the primary limit is used up for an hour WHEN reading THEN ScmError naming the reset time, after one attempt', async () => {
    const reset = nowSeconds() + 3600;
    h.fake.inject({
      method: 'GET',
      route: '/repos/{owner}/{repo}/git/ref/{ref}',
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      body: { message: 'API rate limit exceeded' },
      times: 5,
    });
    const error = await h.scm.branchHead('main').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ScmError', status: 403 });
    expect((error as Error).message).toContain(
      `rate limit for this token is used up; it resets at ${new Date(reset * 1000).toISOString()}`,
    );
    expect(attempts('GET', '/git/ref/{ref}')).toBe(1);
  });
});

describe('GitHub Enterprise Server', () => {
  test('GIVEN a server under /api/v3 WHEN the API URL says so THEN every method works, pagination links included', async () => {
    h = await startHarness({ basePath: '/api/v3' });
    expect(h.fake.apiUrl).toMatch(/\/api\/v3$/);
    for (let i = 1; i <= 120; i++) h.fake.state.openPull(`rollgen/app-${i}/step-1`, 'main', `PR ${i}`, null);
    expect(await h.scm.listPulls({ prefix: 'rollgen/', state: 'open' })).toHaveLength(120);
    await commit();
    const pr = await h.scm.createPull({ branch: BRANCH, base: 'main', title: 't', body: '', labels: ['rollgen'] });
    expect(pr.number).toBe(121);
    expect(h.fake.requests.every((r) => r.status < 300)).toBe(true);
  });

  test('GIVEN a server under /api/v3 WHEN the API URL lacks it THEN ScmError "not found" (nothing answers at the root)', async () => {
    h = await startHarness({ basePath: '/api/v3' });
    const origin = h.fake.apiUrl.replace(/\/api\/v3$/, '');
    const scm = createGitHubScm(
      { token: h.fake.token, repository: h.fake.repository, apiUrl: origin },
      { retryUnitMs: 1, paceWrites: false, log: () => undefined },
    );
    // (branchHead would say "no such branch": GitHub answers a missing ref and a missing route alike.)
    await expect(scm.listPulls({ prefix: 'rollgen/', state: 'open' })).rejects.toThrow(
      /^list open pull requests in octo\/demo: not found/,
    );
    expect(h.fake.violations.splice(0)).toEqual([
      expect.stringMatching(/^GET \/repos\/octo\/demo\/pulls: the fake serves no such route$/),
    ]);
  });
});

describe('the token never leaks', () => {
  beforeEach(async () => (h = await startHarness()));

  test('GIVEN a server that echoes the Authorization header in an error WHEN the request fails THEN the ScmError shows *** instead', async () => {
    h.fake.inject({
      method: 'GET',
      route: '/repos/{owner}/{repo}/git/ref/{ref}',
      status: 403,
      body: (headers) => ({ message: `Resource not accessible by integration (sent ${headers.authorization})` }),
    });
    const error = (await h.scm.branchHead('main').catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('(sent token ***)');
    expect(error.message).not.toContain(h.fake.token);
    expect(JSON.stringify(error)).not.toContain(h.fake.token);
  });

  test('GIVEN a wrong token WHEN reading THEN ScmError 401 that points at the token input, without the token', async () => {
    const wrong = 'ghp_wrongwrongwrong';
    const scm = createGitHubScm(
      { token: wrong, repository: h.fake.repository, apiUrl: h.fake.apiUrl },
      { retryUnitMs: 1, log: () => undefined },
    );
    const error = (await scm.branchHead('main').catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ name: 'ScmError', status: 401 });
    expect(error.message).toMatch(
      /GitHub rejected the token \(Bad credentials\); check the token input or GITHUB_TOKEN/,
    );
    expect(error.message).not.toContain(wrong);
  });

  test('GIVEN a token in plain and URL-encoded form WHEN redacted THEN both become ***; a placeholder shorter than any real token is left alone', () => {
    expect(redact('a ghp_abc/def+1 b ghp_abc%2Fdef%2B1 c', 'ghp_abc/def+1')).toBe('a *** b *** c');
    expect(redact('could not reach GitHub', 't')).toBe('could not reach GitHub');
  });

  test('GIVEN the Octokit logger gets the request headers WHEN it logs THEN the sink sees *** instead of the token', () => {
    const lines: string[] = [];
    const octokit = createOctokit('http://127.0.0.1:9', 'ghs_secret-value', {
      log: (level, line) => void lines.push(`${level} ${line}`),
    });
    octokit.log.debug('request', {
      headers: { authorization: 'token ghs_secret-value' },
      url: '/x?access_token=ghs_secret-value',
    });
    octokit.log.warn(`retrying with ${encodeURIComponent('ghs_secret-value')}`);
    expect(lines).toEqual([
      "debug request { headers: { authorization: 'token ***' }, url: '/x?access_token=***' }",
      'warn retrying with ***',
    ]);
  });

  test('GIVEN a whole step with every log level captured WHEN it runs THEN requests are logged and none of the lines holds the token', async () => {
    await commit();
    await h.scm.createPull({ branch: BRANCH, base: 'main', title: 't', body: '', labels: ['rollgen'] });
    await h.scm.branchHead('nope');
    expect(h.logLines.some((l) => /^info: POST \/repos\/octo\/demo\/git\/trees - 201/.test(l))).toBe(true);
    expect(h.logLines.some((l) => /^error: GET \/repos\/octo\/demo\/git\/ref\/heads%2Fnope - 404/.test(l))).toBe(true);
    expect(h.logLines.filter((l) => l.includes(h.fake.token))).toEqual([]);
  });
});

describe('a POST that succeeded but whose response was lost (502 after GitHub did the work)', () => {
  beforeEach(async () => {
    h = await startHarness();
    await commit();
    await h.scm.createPull({ branch: BRANCH, base: 'main', title: 't', body: '', labels: [] });
    h.fake.resetLog();
  });

  test('GIVEN the merge landed WHEN the retried PUT is refused as not mergeable THEN mergePull succeeds, merged once', async () => {
    const head = h.fake.state.branches.get(BRANCH)!;
    const before = mainHead(h.fake);
    h.fake.inject({
      method: 'PUT',
      route: '/repos/{owner}/{repo}/pulls/{pull_number}/merge',
      status: 502,
      afterHandling: true,
    });
    await h.scm.mergePull(1, { sha: head, method: 'merge' });
    expect(h.fake.log()).toEqual([
      'PUT /pulls/{pull_number}/merge',
      'PUT /pulls/{pull_number}/merge',
      'GET /pulls/{pull_number}',
    ]);
    expect(h.fake.state.pulls.get(1)?.mergedAt).not.toBeNull();
    expect(h.fake.state.commits.get(mainHead(h.fake))?.parents).toEqual([before]);
  });

  test('GIVEN a comment landed WHEN its response was a 502 THEN it is not posted again', async () => {
    h.fake.inject({
      method: 'POST',
      route: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
      status: 502,
      afterHandling: true,
    });
    await h.scm.comment(1, 'rollgen holds echoserver');
    expect(h.fake.state.pulls.get(1)?.comments).toEqual(['rollgen holds echoserver']);
    expect(h.fake.log()).toEqual(['POST /issues/{issue_number}/comments', 'GET /issues/{issue_number}/comments']);
  });

  test('GIVEN a comment did not land WHEN the POST got a 502 THEN it is posted once more, once', async () => {
    h.fake.inject({ method: 'POST', route: '/repos/{owner}/{repo}/issues/{issue_number}/comments', status: 502 });
    await h.scm.comment(1, 'rollgen holds echoserver');
    expect(h.fake.state.pulls.get(1)?.comments).toEqual(['rollgen holds echoserver']);
    expect(h.fake.log()).toEqual([
      'POST /issues/{issue_number}/comments',
      'GET /issues/{issue_number}/comments',
      'POST /issues/{issue_number}/comments',
    ]);
  });
});
