/** The endpoints of GitLab's REST API v4 the fake serves, with GitLab's documented answers. */
import { execFileSync } from 'node:child_process';
import { createCommit } from './gitlab-commits';
import { Call, fail, FakeGitLab, Handler, MergeRequest, ok, paged, RUNNING } from './gitlab-server';

const P = '/api/v4/projects/:id';

const mrOr404 = (s: FakeGitLab, c: Call) => s.mrs.get(Number(c.params.iid));
const labelsOf = (v: unknown): string[] =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean)
    : Array.isArray(v)
      ? v.map(String)
      : [];

function commitExists(s: FakeGitLab, sha: string): boolean {
  try {
    execFileSync('git', ['cat-file', '-e', `${sha}^{commit}`], { cwd: s.git.dir, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

const listMrs: Handler = (s, c) => {
  const state = c.query.get('state') ?? 'all';
  const since = c.query.get('updated_after');
  const asc = c.query.get('sort') === 'asc';
  const key = (m: MergeRequest) =>
    (c.query.get('order_by') === 'updated_at' ? Date.parse(m.updated_at) : Date.parse(m.created_at)) * 1e4 + m.iid;
  const all = [...s.mrs.values()]
    .filter((m) => state === 'all' || m.state === state)
    .filter((m) => !since || Date.parse(m.updated_at) >= Date.parse(since))
    .sort((a, b) => (asc ? key(a) - key(b) : key(b) - key(a)))
    .map((m) => s.json(m));
  return paged(c, all, `${s.apiUrl}/projects/${s.projectId}/merge_requests`);
};

const createMr: Handler = (s, c) => {
  const { source_branch: source, target_branch: target, title } = c.body as Record<string, string>;
  if (!source || !target || !title)
    return fail(400, '400 Bad request - source_branch, target_branch, title are missing');
  if (!s.head(source) || !s.head(target)) return fail(422, ['Source branch does not exist']);
  const open = [...s.mrs.values()].find(
    (m) => m.state === 'opened' && m.source_branch === source && m.target_branch === target,
  );
  if (open) return fail(409, [`Another open merge request already exists for this source branch: !${open.iid}`]);
  const now = s.now();
  const mr: MergeRequest = {
    iid: s.mrs.size + 1,
    source_branch: source,
    target_branch: target,
    title,
    description: String(c.body.description ?? ''),
    labels: labelsOf(c.body.labels),
    state: 'opened',
    created_at: now,
    updated_at: now,
    merged_at: null,
    closed_at: null,
    merge_commit_sha: null,
    merged_by: null,
    last_sha: s.head(source)!,
    notes: [],
  };
  s.mrs.set(mr.iid, mr);
  if (s.pipelineOnCreate) s.headPipelines.set(mr.iid, { id: mr.iid + 1000, status: s.pipelineOnCreate });
  return ok(s.json(mr), 201);
};

const updateMr: Handler = (s, c) => {
  const mr = mrOr404(s, c);
  if (!mr) return fail(404, '404 Not found');
  if (c.body.title !== undefined) mr.title = String(c.body.title);
  if (c.body.description !== undefined) mr.description = String(c.body.description);
  if (c.body.labels !== undefined) mr.labels = labelsOf(c.body.labels);
  if (c.body.state_event === 'close' && mr.state === 'opened')
    Object.assign(mr, { state: 'closed', closed_at: s.now(), last_sha: s.head(mr.source_branch) ?? mr.last_sha });
  if (c.body.state_event === 'reopen' && mr.state === 'closed') Object.assign(mr, { state: 'opened', closed_at: null });
  mr.updated_at = s.now();
  return ok(s.json(mr));
};

/**
 * PUT /merge as GitLab's API does it: 409 for a sha that is not the head; with auto_merge (or
 * merge_when_pipeline_succeeds) while the head pipeline runs, auto-merge is set (200, the MR with
 * merge_when_pipeline_succeeds true); otherwise a merge request that is not mergeable now (an
 * approval missing, a pipeline that must succeed and has not) is 405 Method Not Allowed.
 */
const mergeMr: Handler = (s, c) => {
  const mr = mrOr404(s, c);
  if (!mr) return fail(404, '404 Not found');
  if (mr.state !== 'opened') return fail(405, '405 Method Not Allowed');
  if (c.body.sha !== undefined && c.body.sha !== s.head(mr.source_branch))
    return fail(409, 'SHA does not match HEAD of source branch');
  const auto = c.body.auto_merge === true || c.body.merge_when_pipeline_succeeds === true;
  const pipeline = s.headPipelines.get(mr.iid)?.status;
  if (auto && pipeline && RUNNING.includes(pipeline)) {
    mr.merge_when_pipeline_succeeds = true;
    mr.updated_at = s.now();
    return ok(s.json(mr));
  }
  if (s.mergeStatus(mr) !== 'mergeable') return fail(405, '405 Method Not Allowed');
  s.merge(mr, new Date(), 'rollgen-bot');
  return ok(s.json(mr));
};

const notes = (s: FakeGitLab, c: Call) => {
  const mr = mrOr404(s, c);
  return mr ? mr.notes : undefined;
};

const noteJson = (n: { id: number; body: string; created_at: string }) => ({
  id: n.id,
  type: null,
  body: n.body,
  author: { username: 'rollgen-bot' },
  created_at: n.created_at,
  updated_at: n.created_at,
  system: false,
  noteable_type: 'MergeRequest',
});

const STATES = ['pending', 'running', 'success', 'failed', 'canceled', 'skipped'];

export const ROUTES: readonly { method: string; path: string; handle: Handler }[] = [
  { method: 'GET', path: `${P}/merge_requests`, handle: listMrs },
  { method: 'POST', path: `${P}/merge_requests`, handle: createMr },
  {
    method: 'GET',
    path: `${P}/merge_requests/:iid`,
    handle: (s, c) => (mrOr404(s, c) ? ok(s.json(mrOr404(s, c)!)) : fail(404, '404 Not found')),
  },
  { method: 'PUT', path: `${P}/merge_requests/:iid`, handle: updateMr },
  { method: 'PUT', path: `${P}/merge_requests/:iid/merge`, handle: mergeMr },
  {
    method: 'GET',
    path: `${P}/merge_requests/:iid/notes`,
    handle: (s, c) => {
      const list = notes(s, c);
      if (!list) return fail(404, '404 Not found');
      const sorted = [...list].sort((a, b) => (c.query.get('sort') === 'asc' ? a.id - b.id : b.id - a.id));
      return paged(c, sorted.map(noteJson), `${s.apiUrl}/projects/${s.projectId}/merge_requests/${c.params.iid}/notes`);
    },
  },
  {
    method: 'POST',
    path: `${P}/merge_requests/:iid/notes`,
    handle: (s, c) => {
      const list = notes(s, c);
      if (!list) return fail(404, '404 Not found');
      if (typeof c.body.body !== 'string' || !c.body.body) return fail(400, '400 Bad request - body is missing');
      const note = { id: s.nextId(), body: c.body.body, created_at: s.now() };
      list.push(note);
      return ok(noteJson(note), 201);
    },
  },
  {
    method: 'PUT',
    path: `${P}/merge_requests/:iid/notes/:note_id`,
    handle: (s, c) => {
      const note = notes(s, c)?.find((n) => n.id === Number(c.params.note_id));
      if (!note) return fail(404, '404 Note Not Found');
      note.body = String(c.body.body);
      return ok(noteJson(note));
    },
  },
  {
    method: 'GET',
    path: `${P}/repository/branches/:branch`,
    handle: (s, c) => {
      const sha = s.head(c.params.branch);
      return sha
        ? ok({ name: c.params.branch, merged: false, protected: c.params.branch === 'main', commit: { id: sha } })
        : fail(404, '404 Branch Not Found');
    },
  },
  {
    method: 'GET',
    path: `${P}/repository/commits/:sha/statuses`,
    handle: (s, c) => {
      if (!commitExists(s, c.params.sha)) return fail(404, '404 Commit Not Found');
      const all = c.query.get('all') === 'true';
      const list = s.statuses.get(c.params.sha) ?? [];
      const latest = all ? list : list.filter((st) => !list.some((o) => o.name === st.name && o.id > st.id));
      return paged(
        c,
        latest.map((st) => ({
          id: st.id,
          sha: c.params.sha,
          ref: null,
          status: st.status,
          name: st.name,
          description: st.description,
          created_at: st.created_at,
          started_at: null,
          finished_at: ['success', 'failed', 'canceled'].includes(st.status) ? st.created_at : null,
          allow_failure: false,
          author: { username: 'flux' },
        })),
        `${s.apiUrl}/projects/${s.projectId}/repository/commits/${c.params.sha}/statuses`,
      );
    },
  },
  {
    method: 'GET',
    path: `${P}/repository/commits/:sha/merge_requests`,
    handle: (s, c) => {
      if (!commitExists(s, c.params.sha)) return fail(404, '404 Commit Not Found');
      const carrying = [...s.mrs.values()].filter(
        (m) => m.merge_commit_sha === c.params.sha || m.last_sha === c.params.sha,
      );
      return paged(
        c,
        carrying.map((m) => s.json(m)),
        `${s.apiUrl}/projects/${s.projectId}/repository/commits/${c.params.sha}/merge_requests`,
      );
    },
  },
  {
    method: 'GET',
    path: `${P}/repository/commits/:sha`,
    handle: (s, c) =>
      commitExists(s, c.params.sha)
        ? ok({ id: c.params.sha, short_id: c.params.sha.slice(0, 8), title: '', last_pipeline: null, status: null })
        : fail(404, '404 Commit Not Found'),
  },
  { method: 'POST', path: `${P}/repository/commits`, handle: createCommit },
  {
    method: 'POST',
    path: `${P}/statuses/:sha`,
    handle: (s, c) => {
      const state = String(c.body.state ?? '');
      if (!STATES.includes(state)) return fail(400, '400 Bad request - state does not have a valid value');
      if (!commitExists(s, c.params.sha)) return fail(404, '404 Commit Not Found');
      const name = String(c.body.name ?? c.body.context ?? 'default');
      const st = {
        id: s.nextId(),
        name,
        status: state,
        description: c.body.description === undefined ? null : String(c.body.description),
        created_at: s.now(),
      };
      s.statuses.set(c.params.sha, [...(s.statuses.get(c.params.sha) ?? []), st]);
      return ok({ ...st, sha: c.params.sha }, 201);
    },
  },
];
