/**
 * The hidden marker at the end of every rollgen PR body: what rollgen needs to recognise its PR
 * and to tell whether the PR still says what it would write now, without another request.
 * It is appended after the (user-replaceable) body template, so no template can drop it.
 */
export interface Marker {
  readonly v: 1;
  readonly app: string;
  /** Target slug, as in the branch name (`step-2`, `promote`, ...). */
  readonly target: string;
  /** Canary revision the PR rolls out (stable revision when there is no canary). */
  readonly revision: string;
  readonly stable: string;
  /** Digest of the file changes and of the base content they replace (see proposal.ts). */
  readonly digest: string;
  /** `flow` PRs are opened by `rollgen pr`; `command` PRs by abort/promote/retry --pr. */
  readonly origin: 'flow' | 'command';
  /** Set when rollgen itself closed the PR (superseded), so it never counts as a person's rejection. */
  readonly closedBy?: 'rollgen';
  /** Set on an abort PR opened because the step failed: closing it unmerged holds the app, even once the step recovers. */
  readonly failure?: true;
  /** Set once the hold note was posted on a PR closed unmerged, so it is posted once. */
  readonly noted?: true;
  /** The commit rollgen made for this PR; rollgen merges nothing else (a person's push makes the PR theirs to merge). */
  readonly head?: string;
}

// Anywhere in the body (a person may append text below it); `-->` cannot occur inside, see formatMarker.
const MARKER_RE = /\n*<!-- rollgen: (\{.*?\}) -->\n?/s;

export function formatMarker(m: Marker): string {
  // Escaping <, > keeps `-->` in an app name from ending the comment early; JSON.parse undoes it.
  const json = JSON.stringify(m).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
  return `<!-- rollgen: ${json} -->`;
}

export function parseMarker(body: string): Marker | undefined {
  const m = MARKER_RE.exec(body);
  if (!m) return undefined;
  try {
    const value = JSON.parse(m[1]) as Partial<Marker>;
    const fields = [value.app, value.target, value.revision, value.stable, value.digest];
    if (
      value.v !== 1 ||
      fields.some((f) => typeof f !== 'string') ||
      (value.origin !== 'flow' && value.origin !== 'command')
    )
      return undefined;
    return value as Marker;
  } catch {
    return undefined;
  }
}

/** The body with the commit rollgen made recorded in its marker. */
export function withHead(body: string, head: string): string {
  const m = parseMarker(body);
  return m ? withMarker(body, { ...m, head }) : body;
}

/** The body as rollgen would render it before committing: the marker without the commit it made. */
export function withoutHead(body: string): string {
  const m = parseMarker(body);
  if (!m || m.head === undefined) return body;
  const { head: _made, ...rest } = m;
  return withMarker(body, rest);
}

/** The body with its marker replaced (or appended). */
export function withMarker(body: string, m: Marker): string {
  return `${body.replace(MARKER_RE, '\n').trimEnd()}\n\n${formatMarker(m)}\n`;
}

/** The body with `section` added above its marker (the marker stays last). */
export function withSection(body: string, section: string): string {
  const m = parseMarker(body);
  const text = `${body.replace(MARKER_RE, '\n').trimEnd()}\n\n${section}`;
  return m ? withMarker(text, m) : text;
}
