import * as path from 'path';
import { Diagnostic } from '../diagnostics';
import { parseYamlStream } from '../yaml/parse';
import { contentDigest, objectFiles } from '../state/output-files';
import { renderApp } from '../render/render-app';
import { RepoPeers } from '../render/repo-peers';
import { LoadedApp } from '../spec/loaded-app';
import { OutputSnapshot } from '../state/app-state';
import { recordedStates } from '../state/render-states';
import { STATUS_FILE, rolloutsEdited } from '../state/status';
import { Drift, changedFiles, describeField, fieldChanges, kustomizationDrift } from '../state/drift';
import { AppLocation } from './inputs';

/**
 * Output files that differ from what rollgen wrote for the recorded state (a hand edit, an
 * emergency fix). Which fields: the recorded state is rendered again, and when that render is
 * byte for byte what was written (the source did not change since), its objects are compared.
 */
export function detectDrift(app: LoadedApp, loc: AppLocation, output: OutputSnapshot, peers?: RepoPeers): Drift[] {
  const status = output.status;
  const state: Drift[] = status && rolloutsEdited(status) ? [{ file: STATUS_FILE, kind: 'state' }] : [];
  if (!status?.digests || !output.fileDigests) return state;
  const present = output.fileDigests;
  const listing = kustomizationDrift(
    output.listed,
    (status.files ?? []).filter((f) => f in present),
  );
  if (listing) state.push(listing);
  const changed = changedFiles(status.digests, output.fileDigests);
  if (changed.length === 0) return state;
  const states = recordedStates(app, output, loc.track);
  const again = new Map(objectFiles(renderApp(app, states, loc.track, peers)).map((f) => [f.path, f.content]));
  const files = changed.map(({ file, kind }): Drift => {
    const content = again.get(file);
    if (kind === 'missing' || content === undefined || contentDigest(content) !== status.digests![file])
      return { file, kind };
    const found = output.resources.items.find((i) => path.basename(i.origin.file) === file);
    const rendered = parseYamlStream(file, content).documents[0]?.value;
    return { file, kind, fields: fieldChanges(rendered, found?.object) };
  });
  return [...state, ...files];
}

/** One line per drifted file (and field), paths shown from the working directory. */
export function describeDrift(drift: readonly Drift[], loc: AppLocation, cwd: string): string[] {
  return drift.map((d) => {
    const file = path.relative(cwd, path.join(loc.output ?? '.', d.file)) || d.file;
    if (d.kind === 'missing') return `${file}: deleted by hand (rollgen wrote it)`;
    if (d.kind === 'unlisted')
      return `${file}: no longer lists ${d.unlisted!.join(', ')} (rollgen wrote ${d.unlisted!.length > 1 ? 'them' : 'it'} for this step), so kustomize does not apply ${d.unlisted!.length > 1 ? 'them' : 'it'}`;
    if (d.kind === 'state')
      return `${file}: its rollouts (step, phase or revisions) changed by hand, which would skip or repeat steps; restore it from git, or move the rollout with rollgen promote, abort or retry`;
    if (!d.fields) return `${file}: changed by hand since rollgen wrote it`;
    return `${file}: changed by hand: ${d.fields.map(describeField).join('; ')}`;
  });
}

/** Drift as located warnings, at the changed field when rollgen can tell which. */
export function driftDiagnostics(
  drift: readonly Drift[],
  loc: AppLocation,
  output: OutputSnapshot,
  cwd: string,
): Diagnostic[] {
  return drift.map((d) => {
    const item = output.resources.items.find((i) => path.basename(i.origin.file) === d.file);
    const field = d.fields?.[0];
    const origin = item ? (field ? item.locate(field.path) : item.origin) : undefined;
    const file = path.relative(cwd, path.join(loc.output ?? '.', d.file)) || d.file;
    const [text] = describeDrift([d], loc, cwd);
    return {
      ...(origin ?? { file, line: 1, col: 1 }),
      severity: 'warning' as const,
      message: `drift: ${text.slice(file.length + 2)}; the next advance refuses to overwrite it without --force`,
    };
  });
}
