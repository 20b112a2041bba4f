import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { KUSTOMIZE_CACHE_ENV } from './kustomize-cache';

/**
 * One kustomize cache per jest run, and one directory for rollgen's app index (ROLLGEN_CACHE_DIR),
 * seen by every worker through the environment they inherit; teardown removes both.
 */
export default function setup(): void {
  process.env[KUSTOMIZE_CACHE_ENV] = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-kustomize-'));
  process.env.ROLLGEN_CACHE_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-index-'));
}
