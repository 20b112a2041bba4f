import * as fs from 'fs';
import * as path from 'path';
import { Diagnostic, Origin } from '../diagnostics';

/**
 * Repository confinement of rollgen.yaml, like kustomize's load restrictor: every path it names
 * (sources, outputs, templates, glob patterns) resolves inside the directory of rollgen.yaml, links
 * included, so a commit to rollgen.yaml cannot make rollgen read /etc or write ../../etc/cron.d.
 * Outputs and sources are kept apart: rollgen would otherwise render into what it reads.
 */

/** The real path of `p`, or of its deepest existing ancestor with the rest appended (an output not made yet). */
export function realPathOf(p: string): string {
  const abs = path.resolve(p);
  if (fs.existsSync(abs)) return fs.realpathSync(abs);
  const parent = path.dirname(abs);
  return parent === abs ? abs : path.join(realPathOf(parent), path.basename(abs));
}

export function isInside(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** A path as written in rollgen.yaml (before globbing): absolute or climbing out of the repository is refused as written. */
export function confinePattern(root: string, written: string, field: string, at: Origin): Diagnostic[] {
  const lexical = path.resolve(root, written.replace(/\{name\}/g, 'x'));
  if (path.isAbsolute(written) || !isInside(lexical, root))
    return [error(at, `${field} "${written}" is outside the repository; paths in rollgen.yaml stay inside ${root}`)];
  return [];
}

/** A resolved path (a glob match, a template): its real path, links followed, must stay inside the repository. */
export function confinePath(root: string, p: string, field: string, at: Origin): Diagnostic[] {
  const real = realPathOf(p);
  if (isInside(real, realPathOf(root))) return [];
  return [
    error(at, `${field} ${path.relative(root, p) || '.'} leads outside the repository (to ${real}) through a link`),
  ];
}

export interface SourceAndOutput {
  readonly name: string;
  readonly source: string;
  readonly output?: string;
}

/** An output equal to, inside, or containing any app's source would make rollgen read what it writes. */
/** `child` strictly below `root`, both absolute real paths (a string test: the N² pairs stay cheap). */
const within = (child: string, root: string): boolean =>
  child.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

export function outputOverlaps(apps: readonly SourceAndOutput[]): string[] {
  const problems: string[] = [];
  // Each path resolved once: the pairs are compared as strings (N apps cost N realpaths, not N²).
  const sources = apps.map((b) => realPathOf(b.source));
  for (const a of apps) {
    if (!a.output) continue;
    const out = realPathOf(a.output);
    for (const [i, b] of apps.entries()) {
      const src = sources[i];
      const whose = a === b ? 'its own source' : `the source of app ${b.name}`;
      if (out === src) problems.push(`app ${a.name}: the output is ${whose}; write the output to its own directory`);
      else if (within(out, src)) problems.push(`app ${a.name}: the output is inside ${whose}; move it out`);
      else if (within(src, out)) problems.push(`app ${a.name}: the output contains ${whose}; move it out`);
    }
  }
  return problems;
}

function error(at: Origin, message: string): Diagnostic {
  return { ...at, message, severity: 'error' };
}
