import * as fs from 'fs';
import { KUSTOMIZE_CACHE_ENV } from './kustomize-cache';

export default function teardown(): void {
  const dir = process.env[KUSTOMIZE_CACHE_ENV];
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
