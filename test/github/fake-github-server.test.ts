/**
 * The fake GitHub's contract with the real one: each route it serves is an operation in GitHub's
 * published OpenAPI description, and the checks that guard every exchange do reject drift.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkRequest, checkResponse, operationId } from './fake/openapi';
import { ROUTES } from './fake/routes';

describe('fake GitHub routes', () => {
  test('GIVEN every route the fake serves WHEN looked up in api.github.com.json THEN each exists with that method', () => {
    const missing = ROUTES.filter((r) => !operationId(r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    expect(ROUTES.map((r) => operationId(r.method, r.path)).sort()).toEqual([
      'checks/create',
      'checks/list-for-ref',
      'checks/update',
      'git/create-commit',
      'git/create-ref',
      'git/create-tree',
      'git/get-commit',
      'git/get-ref',
      'git/update-ref',
      'issues/add-labels',
      'issues/create-comment',
      'issues/list-comments',
      'issues/set-labels',
      'pulls/create',
      'pulls/get',
      'pulls/list',
      'pulls/merge',
      'pulls/update',
      'repos/get-combined-status-for-ref',
    ]);
  });

  test('GIVEN the extract of the description WHEN read THEN it names its package version and holds every served operation with every component they reference', () => {
    const extract = JSON.parse(readFileSync(join(__dirname, 'fake', 'github-openapi.json'), 'utf8'));
    expect(extract).toMatchObject({ package: '@octokit/openapi', file: 'generated/api.github.com.json' });
    expect(extract.version).toMatch(/^\d+\.\d+\.\d+$/);
    const served = ROUTES.map((r) => extract.paths[r.path]?.[r.method.toLowerCase()]);
    expect(served.filter((op) => op === undefined)).toEqual([]);
    const refsIn = (node: unknown): string[] => JSON.stringify(node).match(/(?<="#\/components\/)[^"]+/g) ?? [];
    const reached = new Set<string>();
    const unresolved: string[] = [];
    for (const queue = refsIn(served); queue.length > 0; ) {
      const ref = queue.pop()!;
      if (reached.has(ref)) continue;
      reached.add(ref);
      const [section, name] = ref.split('/');
      const target = extract.components[section]?.[name];
      if (target === undefined) unresolved.push(ref);
      else queue.push(...refsIn(target));
    }
    expect(reached.size).toBeGreaterThan(served.length);
    expect(unresolved).toEqual([]);
  });

  test('GIVEN a route GitHub does not have WHEN checked THEN it is reported', () => {
    expect(operationId('DELETE', '/repos/{owner}/{repo}/pulls/{pull_number}')).toBeUndefined();
    expect(checkResponse('DELETE', '/repos/{owner}/{repo}/pulls/{pull_number}', 204, undefined)).toEqual([
      "DELETE /repos/{owner}/{repo}/pulls/{pull_number}: not in GitHub's OpenAPI description",
    ]);
  });
});

describe('OpenAPI checks catch drift', () => {
  const REF = '/repos/{owner}/{repo}/git/ref/{ref}';
  const ref = {
    ref: 'refs/heads/main',
    node_id: 'x',
    url: 'http://h/x',
    object: { type: 'commit', sha: 'a'.repeat(40), url: 'http://h/y' },
  };

  test('GIVEN a valid git-ref WHEN checked THEN no problems; WHEN a required field is dropped or mistyped THEN each is named', () => {
    expect(checkResponse('GET', REF, 200, ref)).toEqual([]);
    expect(checkResponse('GET', REF, 200, { ...ref, object: { ...ref.object, sha: 1 } })).toEqual([
      `GET ${REF} 200 response/object/sha: must be string`,
    ]);
    expect(checkResponse('GET', REF, 200, { ref: 'x' })).toHaveLength(3);
  });

  test('GIVEN a status the operation does not document WHEN checked THEN it is reported (5xx faults excepted)', () => {
    expect(checkResponse('GET', REF, 418, {})).toEqual([`GET ${REF}: status 418 is not a documented response`]);
    expect(checkResponse('GET', REF, 502, {})).toEqual([]);
  });

  test('GIVEN nullable enums (check-run conclusion) WHEN null THEN accepted; WHEN an unknown value THEN rejected', () => {
    const path = '/repos/{owner}/{repo}/commits/{ref}/check-runs';
    const run = (conclusion: unknown) => ({
      total_count: 1,
      check_runs: [
        {
          id: 1,
          node_id: 'n',
          head_sha: 's',
          name: 'ci',
          url: 'u',
          html_url: null,
          details_url: null,
          external_id: null,
          status: 'queued',
          conclusion,
          started_at: null,
          completed_at: null,
          output: { title: null, summary: null, text: null, annotations_count: 0, annotations_url: 'http://h/a' },
          check_suite: null,
          app: null,
          pull_requests: [],
        },
      ],
    });
    expect(checkResponse('GET', path, 200, run(null))).toEqual([]);
    expect(checkResponse('GET', path, 200, run('maybe'))).toEqual([
      `GET ${path} 200 response/check_runs/0/conclusion: must be equal to one of the allowed values`,
    ]);
  });

  test('GIVEN a request with an unknown query parameter or a body that breaks the schema WHEN checked THEN both are reported', () => {
    expect(
      checkRequest(
        'GET',
        '/repos/{owner}/{repo}/pulls',
        new URLSearchParams('state=open&per_page=100&page=2'),
        undefined,
      ),
    ).toEqual([]);
    expect(
      checkRequest('GET', '/repos/{owner}/{repo}/pulls', new URLSearchParams('head_prefix=rollgen'), undefined),
    ).toEqual(['GET /repos/{owner}/{repo}/pulls: unknown query parameter head_prefix']);
    expect(
      checkRequest('POST', '/repos/{owner}/{repo}/git/trees', new URLSearchParams(), {
        tree: [{ path: 'a', mode: '100644', type: 'blob', sha: null }],
      }),
    ).toEqual([]);
    expect(checkRequest('POST', '/repos/{owner}/{repo}/git/trees', new URLSearchParams(), { base_tree: 'x' })).toEqual([
      "POST /repos/{owner}/{repo}/git/trees request: must have required property 'tree'",
    ]);
  });
});
