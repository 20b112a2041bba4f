import * as fs from 'fs';
import { classify, FieldLedger } from '../../src/spec/field-ledger';
import { ALL_LEDGERS } from '../../src/spec/field-ledgers';
import { CRD_DIR, crdFieldPaths } from '../helpers/crd-paths';

/** The meta-test: every field path of the upstream CRDs is classified, and every rule names a real path. */
const crdsPresent = fs.existsSync(CRD_DIR);
if (!crdsPresent)
  console.warn(`field ledger meta-test skipped: ${CRD_DIR} is missing (CI has shared/ beside the checkout)`);
const maybe = crdsPresent ? describe : describe.skip;

maybe.each(ALL_LEDGERS.map((l) => [l.title, l] as [string, FieldLedger]))('%s', (_title, ledger) => {
  const paths = crdFieldPaths(ledger.crd.file, ledger.crd.version);

  test('every field path of the CRD is honoured, warned or refused', () => {
    expect(paths.filter((p) => !classify(ledger, p))).toEqual([]);
  });

  test('every rule names a field path of the CRD (no stale entries)', () => {
    expect(ledger.rules.map((r) => r.path).filter((p) => !paths.includes(p))).toEqual([]);
  });

  test('every warned or refused rule says what rollgen does instead and what to do', () => {
    for (const r of ledger.rules) if (r.status !== 'honoured') expect(r.note.length).toBeGreaterThan(30);
  });

  test('no path has two rules', () => {
    const seen = ledger.rules.map((r) => r.path);
    expect(seen.filter((p, i) => seen.indexOf(p) !== i)).toEqual([]);
  });
});
