/**
 * A file name rollgen may create or delete in an output directory: one path segment, no leading
 * dot (rollgen's own bookkeeping is hidden), no separators, no control characters. Every name that
 * reaches the file system passes this, whatever produced it (object names, the status file).
 */
export function isPlainFileName(name: string): boolean {
  return name.length <= 255 && /^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(name) && !name.includes('..');
}
