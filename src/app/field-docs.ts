import { providerInputs } from '../../generators/registry';
import { FieldLedger, FieldRule } from '../spec/field-ledger';
import { allLedgers } from '../spec/field-ledgers';

const ALL_LEDGERS = allLedgers(providerInputs);

/**
 * The "honoured / warned / refused" tables of the docs, generated from the field ledger so they
 * cannot drift: docs/fields.md in full, a summary in README.md and each provider's fields in its
 * README, between `<!-- fields:begin -->` and `<!-- fields:end -->`. `npm run docs:fields` writes
 * them; test/spec/field-docs.test.ts checks the committed files equal the generated text.
 */

export const BEGIN = '<!-- fields:begin (generated from the field ledger by npm run docs:fields) -->';
export const END = '<!-- fields:end -->';

/** The fields each provider reads, by the rule paths that name them. */
const PROVIDER_FIELDS: Readonly<Record<string, readonly string[]>> = {
  istio: ['.trafficRouting.istio', '.customNetworkRefs'],
  'ingress-nginx': ['.trafficRouting.nginx', '[].ingress'],
  'aws-alb': ['.trafficRouting.alb'],
  'gateway-api': ['.trafficRouting.plugins', '[].gateway'],
  'aliyun-alb': ['[].ingress'],
  higress: ['[].ingress'],
  mse: ['[].ingress'],
  custom: ['.customNetworkRefs'],
};

/** Every generated file section: repo-relative path -> the text between the markers. */
export function fieldDocSections(): ReadonlyMap<string, string> {
  const out = new Map<string, string>([
    ['docs/fields.md', ALL_LEDGERS.map(fullTable).join('\n')],
    ['README.md', summary()],
  ]);
  for (const [provider, fragments] of Object.entries(PROVIDER_FIELDS)) {
    const tables = ALL_LEDGERS.map((l) =>
      table(
        l,
        l.rules.filter((r) => fragments.some((f) => r.path.includes(f))),
      ),
    )
      .filter((t) => t !== '')
      .join('\n');
    out.set(`generators/${provider}/README.md`, tables);
  }
  return out;
}

/** Replaces the generated section of a file's text; a file without the markers gets it appended. */
export function withSection(text: string, section: string): string {
  const block = `${BEGIN}\n\n${section.trimEnd()}\n\n${END}`;
  const start = text.indexOf(BEGIN.slice(0, BEGIN.indexOf(' ')));
  const end = text.indexOf(END);
  if (start < 0 || end < start) return `${text.trimEnd()}\n\n## Fields: honoured, warned, refused\n\n${block}\n`;
  return text.slice(0, start) + block + text.slice(end + END.length);
}

function fullTable(ledger: FieldLedger): string {
  return table(ledger, ledger.rules);
}

function table(ledger: FieldLedger, rules: readonly FieldRule[]): string {
  if (rules.length === 0) return '';
  const rows = [...rules]
    .sort((a, b) => a.path.localeCompare(b.path, 'en'))
    .map((r) => `| \`${r.path}${r.subtree ? '.*' : ''}\` | ${r.status} | ${escape(r.note ?? '')} |`);
  return [
    `### ${ledger.title}`,
    '',
    '| field | rollgen | what it does / what to do |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

function summary(): string {
  const rows = ALL_LEDGERS.map((l) => {
    const count = (s: FieldRule['status']) => l.rules.filter((r) => r.status === s).length;
    const refused = l.rules.filter((r) => r.status === 'refused').map((r) => `\`${lastSegment(r.path)}\``);
    return `| ${l.title} | ${count('honoured')} | ${count('warned')} | ${count('refused')} | ${refused.join(', ') || '-'} |`;
  });
  return [
    'Every field of the upstream CRDs is honoured, warned about (a located warning in `plan`, `validate`, `render`,',
    '`advance` and the PR body) or refused (exit 2, located). Full tables: [docs/fields.md](docs/fields.md).',
    '',
    '| kind | honoured | warned | refused | refused fields |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

function escape(text: string): string {
  return text.replace(/\|/g, '\\|');
}
