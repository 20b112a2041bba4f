import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const FLEET_EXAMPLE = path.join(__dirname, '..', '..', 'examples', 'fleet');

/** A copy of examples/fleet in a temporary directory, its rollgen.yaml edited by `edit`. */
export function fleetRepo(edit: (yaml: string) => string = (y) => y): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-fleet-'));
  fs.cpSync(FLEET_EXAMPLE, dir, { recursive: true });
  const config = path.join(dir, 'rollgen.yaml');
  fs.writeFileSync(config, edit(fs.readFileSync(config, 'utf8')));
  return dir;
}

/** The line (1-based) of the first line of `file` containing `text`. */
export function lineOf(file: string, text: string, from = 0): number {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const i = lines.findIndex((l, n) => n >= from && l.includes(text));
  if (i < 0) throw new Error(`${text} not in ${file}`);
  return i + 1;
}
