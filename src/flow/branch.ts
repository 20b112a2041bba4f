/**
 * Head branch names of rollgen's PRs: `rollgen/<app>/<target>`. The name is a pure function of the
 * app and what the PR proposes, so every run finds the PR it opened before by its branch and never
 * opens a second one; `parseBranch` reads names back. App names come from directory names and may
 * hold characters git forbids in refs (space, `~^:?*[\`, `..`, a trailing `.lock`), so the app part
 * keeps `[A-Za-z0-9-]` and writes every other UTF-8 byte as `_xx` (lowercase hex, `_` itself too).
 */
export const BRANCH_PREFIX = 'rollgen/';

/** What a PR proposes for its app. */
export type Target =
  | { readonly kind: 'step'; readonly step: number }
  | {
      readonly kind: 'adopt' | 'select' | 'promote' | 'cleanup' | 'revert' | 'remove' | 'abort' | 'retry' | 'update';
    };

/** `update`: a plain rolling update of the Deployments of disabled rollouts (Kruise spec.disabled). */
const NAMED = ['adopt', 'select', 'promote', 'cleanup', 'revert', 'remove', 'abort', 'retry', 'update'] as const;

export function branchName(app: string, target: Target): string {
  return `${BRANCH_PREFIX}${encodeApp(app)}/${targetSlug(target)}`;
}

export function targetSlug(t: Target): string {
  return t.kind === 'step' ? `step-${t.step}` : t.kind;
}

/** The app and target of a rollgen branch; undefined for any other name (including non-canonical spellings). */
export function parseBranch(branch: string): { readonly app: string; readonly target: Target } | undefined {
  const m = /^rollgen\/([A-Za-z0-9_-]+)\/([a-z0-9-]+)$/.exec(branch);
  if (!m) return undefined;
  const app = decodeApp(m[1]);
  const target = parseTarget(m[2]);
  return app !== undefined && target ? { app, target } : undefined;
}

export function parseTarget(slug: string): Target | undefined {
  const step = /^step-([1-9]\d{0,5})$/.exec(slug);
  if (step) return { kind: 'step', step: Number(step[1]) };
  return (NAMED as readonly string[]).includes(slug) ? { kind: slug as (typeof NAMED)[number] } : undefined;
}

export function encodeApp(app: string): string {
  let out = '';
  for (const byte of Buffer.from(app, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9-]/.test(c) ? c : `_${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

function decodeApp(encoded: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] !== '_') {
      bytes.push(encoded.charCodeAt(i));
      continue;
    }
    const hex = encoded.slice(i + 1, i + 3);
    if (!/^[0-9a-f]{2}$/.test(hex)) return undefined;
    bytes.push(parseInt(hex, 16));
    i += 2;
  }
  const app = Buffer.from(bytes).toString('utf8');
  // One spelling per app: `_41` for `A`, or bytes that are not UTF-8, are not names rollgen wrote.
  return app.length > 0 && encodeApp(app) === encoded ? app : undefined;
}
