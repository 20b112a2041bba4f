// Writes the "honoured / warned / refused" sections of the docs from the field ledger (src/app/field-docs.ts).
import { build } from 'esbuild';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rollgen-field-docs-')), 'field-docs.cjs');
await build({
  entryPoints: ['src/app/field-docs.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: out,
  logLevel: 'warning',
});
const { fieldDocSections, withSection } = createRequire(import.meta.url)(out);
for (const [file, section] of fieldDocSections()) {
  const text = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8')
    : '# Fields: honoured, warned, refused\n\n<!-- fields:begin -->\n<!-- fields:end -->\n';
  fs.writeFileSync(file, withSection(text, section));
}
fs.rmSync(path.dirname(out), { recursive: true, force: true });
