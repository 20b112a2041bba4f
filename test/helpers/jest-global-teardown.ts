import * as fs from 'fs';
import { SCRATCH_ENV } from './jest-global-setup';

export default function teardown(): void {
  const scratch = process.env[SCRATCH_ENV];
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
}
