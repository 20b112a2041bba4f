import * as fs from 'fs';
import { KUSTOMIZE_CACHE_ENV } from './kustomize-cache';

export default function teardown(): void {
  for (const dir of [process.env[KUSTOMIZE_CACHE_ENV], process.env.ROLLGEN_CACHE_DIR])
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
