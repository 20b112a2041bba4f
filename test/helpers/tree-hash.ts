import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/**
 * Every entry under `root` with its type, mode and content (a link's target, not what it points
 * to), except paths under `skip`: a before/after comparison proves nothing else was written,
 * deleted, or had its mode changed.
 */
export function treeHashes(root: string, skip: readonly string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full);
      if (skip.some((s) => rel === s || rel.startsWith(`${s}${path.sep}`))) continue;
      const st = fs.lstatSync(full);
      const mode = (st.mode & 0o7777).toString(8);
      if (st.isSymbolicLink()) out.set(rel, `link ${fs.readlinkSync(full)}`);
      else if (st.isDirectory()) {
        out.set(rel, `dir ${mode}`);
        walk(full);
      } else out.set(rel, `file ${mode} ${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`);
    }
  };
  walk(root);
  return out;
}
