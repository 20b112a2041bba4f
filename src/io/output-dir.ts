import * as fs from 'fs';
import * as path from 'path';
import { IoError } from '../errors';
import { RenderedFile } from '../state/output-files';

export interface OutputContents {
  readonly files: readonly { readonly path: string; readonly text: string }[];
}

/** Reads every YAML file at the top of the output directory; a missing directory is an empty output. */
export function readOutputDir(dir: string | undefined, cwd: string): OutputContents {
  if (!dir || !fs.existsSync(dir)) return { files: [] };
  const names = fs
    .readdirSync(dir)
    .filter((n) => /\.ya?ml$/.test(n))
    .sort();
  return {
    files: names.map((n) => ({
      path: path.relative(cwd, path.join(dir, n)) || n,
      text: fs.readFileSync(path.join(dir, n), 'utf8'),
    })),
  };
}

/**
 * Replaces the output directory's managed files atomically: the new directory is built beside the
 * old one and swapped in with renames, so a failure leaves the output exactly as it was.
 */
export function writeOutputDir(dir: string, files: readonly RenderedFile[], remove: readonly string[]): void {
  const parent = path.dirname(path.resolve(dir));
  const stage = path.join(parent, `.${path.basename(dir)}.rollgen-${process.pid}`);
  const backup = `${stage}.old`;
  try {
    fs.mkdirSync(parent, { recursive: true });
    fs.rmSync(stage, { recursive: true, force: true });
    if (fs.existsSync(dir)) fs.cpSync(dir, stage, { recursive: true });
    else fs.mkdirSync(stage);
    for (const name of remove) fs.rmSync(path.join(stage, name), { force: true });
    for (const f of files) fs.writeFileSync(path.join(stage, f.path), f.content);
    if (fs.existsSync(dir)) fs.renameSync(dir, backup);
    fs.renameSync(stage, dir);
    fs.rmSync(backup, { recursive: true, force: true });
  } catch (e) {
    if (!fs.existsSync(dir) && fs.existsSync(backup)) fs.renameSync(backup, dir);
    fs.rmSync(stage, { recursive: true, force: true });
    throw new IoError(dir, `could not write the output; it is unchanged (${(e as Error).message})`, { cause: e });
  }
}
