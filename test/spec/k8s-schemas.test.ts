import { execFileSync } from 'child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const root = join(__dirname, '..', '..');

test('the per-kind Kubernetes validators are current: recompiling them gives the committed bytes', () => {
  const out = mkdtempSync(join(tmpdir(), 'rollgen-k8s-schemas-'));
  try {
    execFileSync(process.execPath, [join(root, 'scripts/compile-k8s-schemas.mjs'), out], { cwd: root });
    const committed = join(root, 'src/spec/generated');
    const names = readdirSync(join(out, 'k8s')).sort();
    expect(readdirSync(join(committed, 'k8s')).sort()).toEqual(names);
    for (const name of [...names.map((n) => `k8s/${n}`), 'k8s-kinds.ts']) {
      const current = readFileSync(join(out, name)).equals(readFileSync(join(committed, name)));
      expect({ name, current }).toEqual({ name, current: true });
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
