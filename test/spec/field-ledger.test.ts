import * as fs from 'fs';
import { checkFields, classify, FieldLedger } from '../../src/spec/field-ledger';
import { parseOne } from '../plan/helpers';
import { providerInputs } from '../../generators/registry';
import { allLedgers } from '../../src/spec/field-ledgers';
import { CRD_DIR, crdFieldPaths } from '../helpers/crd-paths';

const ALL_LEDGERS = allLedgers(providerInputs);

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

describe('the ledger machinery', () => {
  const ledger: FieldLedger = {
    title: 'test',
    crd: { file: '-', version: '-' },
    rules: [
      { path: 'spec', status: 'honoured' },
      { path: 'spec.items', status: 'honoured' },
      { path: 'spec.items[].name', status: 'honoured' },
      { path: 'spec.items[].later', status: 'warned', note: 'not yet: does nothing' },
      { path: 'spec.tree', status: 'honoured', subtree: true },
      { path: 'spec.gone', status: 'refused', subtree: true, note: 'not supported: use spec.tree' },
    ],
  };
  const doc = (text: string) => parseOne(text, 'f.yaml');

  test('a path is classified by its own rule or a subtree ancestor; a list rule covers its items', () => {
    expect(classify(ledger, 'spec.items[]')?.path).toBe('spec.items');
    expect(classify(ledger, 'spec.tree.a.b[].c')?.path).toBe('spec.tree');
    expect(classify(ledger, 'spec.items[].other')).toBeUndefined();
    expect(classify(ledger, 'spec.other')).toBeUndefined();
  });

  test('checkFields warns and refuses where the fields are; false and null ask for nothing', () => {
    const text = 'spec:\n  items:\n    - name: a\n      later: 1\n    - later: false\n  gone: {x: 1}\n  tree: {y: 2}\n';
    expect(checkFields(doc(text), ledger)).toEqual([
      { file: 'f.yaml', line: 4, col: 14, message: 'spec.items[0].later: not yet: does nothing', severity: 'warning' },
      { file: 'f.yaml', line: 6, col: 9, message: 'spec.gone: not supported: use spec.tree', severity: 'error' },
    ]);
  });
});
