/**
 * serializeValue reuses one yaml Document for every value (src/yaml/serialize.ts): each value must
 * come out exactly as a Document of its own would print it, whatever was serialized before.
 */
import { stringify } from 'yaml';
import { serializeDocuments, serializeValue } from '../../src/yaml/serialize';

const alone = (value: unknown) =>
  stringify(value, {
    version: '1.1',
    lineWidth: 0,
    minContentWidth: 0,
    indent: 2,
    indentSeq: true,
    aliasDuplicateObjects: false,
    singleQuote: false,
    directives: false,
  });

const shared = { image: 'web:2', ports: [{ containerPort: 8080 }] };
const VALUES: unknown[] = [
  { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', labels: { on: 'yes', off: 'no' } } },
  { a: shared, b: shared, c: [shared, shared] }, // the same object twice: written out, never as an alias
  { text: 'line one\nline two\n', empty: '', nothing: null, list: [], map: {}, n: 0.5, octal: '0755' },
  ['a', 1, true, { nested: [['x']] }],
  'plain string',
  42,
];

test('each value prints as a Document of its own would, in any order and after any other', () => {
  for (const order of [VALUES, [...VALUES].reverse()])
    for (const value of order) expect(serializeValue(value)).toBe(alone(value));
});

test('documents are joined with --- and nothing of one leaks into the next', () => {
  expect(serializeDocuments(VALUES)).toBe(VALUES.map(alone).join('---\n'));
  expect(serializeValue({ x: 1 })).toBe('x: 1\n');
});
