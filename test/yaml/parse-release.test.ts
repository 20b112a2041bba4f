import * as yaml from 'yaml';
import { parseYamlStream } from '../../src/yaml/parse';

/**
 * A stream's node trees can be dropped once its documents are loaded (a repo-wide run holds every
 * app): positions found afterwards are the same, parsed again only when a line or column is read.
 */
const TEXT = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  name: web',
  '  labels: {app: web}',
  'spec:',
  '  template:',
  '    spec:',
  '      containers:',
  '        - name: app',
  '          args: |',
  '            line one',
  '            line two',
  '---',
  '# an empty document',
  '---',
  'kind: Service',
  'metadata: {name: web}',
  '',
].join('\n');

const PATHS: (string | number)[][] = [
  [],
  ['kind'],
  ['metadata', 'name'],
  ['metadata', 'labels', 'app'],
  ['metadata', 'missing', 'deeper'],
  ['spec', 'template', 'spec', 'containers', 0, 'name'],
  ['spec', 'template', 'spec', 'containers', 5],
  ['spec', 'template', 'spec', 'containers', 0, 'args'],
];

const plain = (o: { file: string; line: number; col: number } | undefined) => o && { ...o };

test('after release, every origin is the one found before it, in every document', () => {
  const kept = parseYamlStream('f.yaml', TEXT);
  const released = parseYamlStream('f.yaml', TEXT);
  released.release?.();
  expect(released.documents.map((d) => d.index)).toEqual([0, 2]);
  released.documents.forEach((d, i) => {
    const before = kept.documents[i];
    expect(d.origin).toEqual(before.origin);
    for (const p of PATHS) {
      expect(plain(d.locate(p))).toEqual(plain(before.locate(p)));
      expect(plain(d.locateBlockText?.(p))).toEqual(plain(before.locateBlockText?.(p)));
    }
  });
});

test('after release, nothing is parsed again until a line or column is read', () => {
  const r = parseYamlStream('f.yaml', TEXT);
  r.release?.();
  const parse = jest.spyOn(yaml.Parser.prototype, 'parse'); // on the prototype: whatever import the module uses
  try {
    const origins = PATHS.map((p) => r.documents[0].locate(p));
    expect(origins.map((o) => o.file)).toEqual(PATHS.map(() => 'f.yaml'));
    expect(parse).not.toHaveBeenCalled();
    expect(origins[2].line).toBe(4);
    expect(origins[2].col).toBe(9);
    expect(parse).toHaveBeenCalledTimes(1);
    expect(r.documents[1].locate(['kind']).line).toBe(17); // the stream is held again: no second parse
    expect(parse).toHaveBeenCalledTimes(1);
  } finally {
    parse.mockRestore();
  }
});
