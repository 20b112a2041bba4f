import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { accessibleStat } from './fs-access';
import { KUSTOMIZE_CACHE_ENV } from './kustomize-cache';

/** Where a Linux machine keeps files in memory; tests write and delete many small files. */
const MEMORY_FS = '/dev/shm';
export const SCRATCH_ENV = 'ROLLGEN_TEST_SCRATCH';
/** A container's /dev/shm is 64 MB unless it is given more: the suite's scratch needs room. */
const MIN_FREE_BYTES = 1024 ** 3;

function memoryHasRoom(): boolean {
  if (!accessibleStat(MEMORY_FS, fs.constants.W_OK)?.isDirectory()) return false;
  const free = fs.statfsSync(MEMORY_FS);
  return free.bavail * free.bsize >= MIN_FREE_BYTES;
}

/**
 * One scratch directory per jest run, made the workers' TMPDIR (every test's temp dirs, and the
 * processes they start, land there): in memory when the machine has /dev/shm with room (1 GB free), since creating and
 * deleting small files on the CI machine's disk cost more than the tests' own work. In it: one
 * kustomize cache and one directory for rollgen's app index (ROLLGEN_CACHE_DIR), seen by every
 * worker through the environment they inherit; teardown removes the whole directory.
 */
export default function setup(): void {
  const scratch = fs.mkdtempSync(path.join(memoryHasRoom() ? MEMORY_FS : os.tmpdir(), 'rollgen-test-'));
  process.env[SCRATCH_ENV] = scratch;
  process.env.TMPDIR = scratch;
  process.env[KUSTOMIZE_CACHE_ENV] = fs.mkdtempSync(path.join(scratch, 'kustomize-'));
  process.env.ROLLGEN_CACHE_DIR = fs.mkdtempSync(path.join(scratch, 'index-'));
  // The tests' git makes hundreds of throwaway commits: no `git maintenance run --auto` after each.
  quietGit({ 'maintenance.auto': 'false', 'gc.auto': '0' });
}

/** Adds settings to every git the tests start, through git's GIT_CONFIG_COUNT environment (git 2.31+). */
function quietGit(settings: Record<string, string>): void {
  const given = Number(process.env.GIT_CONFIG_COUNT);
  let n = Number.isInteger(given) && given > 0 ? given : 0;
  const set = new Set(Array.from({ length: n }, (_, i) => process.env[`GIT_CONFIG_KEY_${i}`]));
  for (const [key, value] of Object.entries(settings)) {
    if (set.has(key)) continue; // a second run in one process (jest --watch), or the caller's own choice
    process.env[`GIT_CONFIG_KEY_${n}`] = key;
    process.env[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  process.env.GIT_CONFIG_COUNT = String(n);
}
