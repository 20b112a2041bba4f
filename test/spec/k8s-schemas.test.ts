import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

/**
 * The per-kind Kubernetes validators (src/spec/generated/k8s) are current: their stamp, written by
 * `npm run schemas:k8s`, names the model packages, compilers and scripts they were compiled from and
 * the digest of what was written. Compiling again is ~10 s of CPU; comparing stamps is not.
 */
const root = join(__dirname, '..', '..');
const generated = join(root, 'src', 'spec', 'generated');

async function stampOf(dir: string) {
  const { k8sStamp } = await import(join(root, 'scripts', 'k8s-schemas-stamp.mjs'));
  return k8sStamp(root, dir);
}

test('GIVEN the committed validators WHEN stamped again THEN inputs (packages, scripts) and outputs are as recorded: run `npm run schemas:k8s` otherwise', async () => {
  const recorded = JSON.parse(readFileSync(join(generated, 'k8s-stamp.json'), 'utf8'));
  expect(await stampOf(generated)).toEqual(recorded);
});

test('GIVEN a validator edited by hand WHEN stamped THEN the outputs digest differs', async () => {
  const copy = mkdtempSync(join(tmpdir(), 'rollgen-k8s-stamp-'));
  try {
    cpSync(join(generated, 'k8s'), join(copy, 'k8s'), { recursive: true });
    cpSync(join(generated, 'k8s-kinds.ts'), join(copy, 'k8s-kinds.ts'));
    const same = await stampOf(copy);
    const file = join(copy, 'k8s', 'apps-v1-Deployment.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"use strict";', '"use strict";/* edited */'));
    const edited = await stampOf(copy);
    expect(edited.inputs).toBe(same.inputs);
    expect(edited.outputs).not.toBe(same.outputs);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
