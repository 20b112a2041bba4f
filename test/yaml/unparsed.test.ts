import { digestStream, fromDigest, parseYamlStream } from '../../src/yaml/parse';

/** A document left out for a YAML error still says what it is, so no rule also reports it missing. */
const TEXT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: echoserver
  namespace: shop
spec:
  replicas: 5
  replicas: 3
---
kind: Service
metadata: {name: [not, a, string]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: fine
`;

test('a document with a YAML error is left out, named by its kind, name and namespace where they read as strings', () => {
  const r = parseYamlStream('f.yaml', TEXT);
  expect(r.documents.map((d) => (d.value as { kind: string }).kind)).toEqual(['ConfigMap']);
  expect(r.diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual([
    '8:3 invalid YAML: Map keys must be unique',
    expect.stringMatching(/^1[12]:\d+ invalid YAML: /),
  ]);
  expect(r.unparsed).toEqual([{ kind: 'Deployment', metadata: { name: 'echoserver', namespace: 'shop' } }]);
});

test('the digest a worker thread sends back carries the same', () => {
  expect(fromDigest('f.yaml', TEXT, digestStream('f.yaml', TEXT)).unparsed).toEqual(
    parseYamlStream('f.yaml', TEXT).unparsed,
  );
  expect(parseYamlStream('f.yaml', 'kind: ConfigMap\n').unparsed).toBeUndefined();
});
