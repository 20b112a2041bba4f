import * as fs from 'fs';
import * as path from 'path';
import { fieldDocSections, withSection } from '../../src/app/field-docs';

/** The docs' "honoured / warned / refused" tables are the ledger's: regenerate with `npm run docs:fields`. */
const ROOT = path.join(__dirname, '..', '..');

test.each([...fieldDocSections().entries()])('%s holds the tables generated from the field ledger', (file, section) => {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  expect(text).toBe(withSection(text, section));
});

test('a ledger change shows up in the generated section', () => {
  const [file, section] = [...fieldDocSections().entries()][0];
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  expect(withSection(text, section.replace('honoured', 'warned'))).not.toBe(text);
});
