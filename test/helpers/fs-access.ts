import * as fs from 'fs';

/** `file`'s stat when this process may access it with `mode` (fs.constants.W_OK, X_OK...); otherwise undefined. */
export function accessibleStat(file: string, mode: number): fs.Stats | undefined {
  try {
    fs.accessSync(file, mode);
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}
