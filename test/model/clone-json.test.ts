import { parseAllDocuments } from 'yaml';
import * as fs from 'fs';
import * as path from 'path';
import { cloneJson } from '../../src/model/kube';

/** cloneJson copies plain data directly; whatever it is given, the result is what the JSON round trip gives. */
const viaJson = (v: unknown) => JSON.parse(JSON.stringify(v));

function expectSameAsJson(value: unknown): void {
  const copy = cloneJson(value);
  expect(JSON.stringify(copy)).toBe(JSON.stringify(viaJson(value)));
  expect(copy).toStrictEqual(viaJson(value));
}

test('every example app, as parsed: an equal, separate copy', () => {
  const examples = path.join(__dirname, '..', '..', 'examples');
  const files = fs
    .readdirSync(examples, { recursive: true })
    .map(String)
    .filter((f) => /\.ya?ml$/.test(f));
  expect(files.length).toBeGreaterThan(20);
  for (const f of files)
    for (const doc of parseAllDocuments(fs.readFileSync(path.join(examples, f), 'utf8'))) {
      const value = doc.toJS();
      expectSameAsJson(value);
      if (value && typeof value === 'object') expect(cloneJson(value)).not.toBe(value);
    }
});

test('what JSON drops, turns to null or calls is dropped, turned to null or called', () => {
  const sparse: unknown[] = [1];
  sparse[3] = 'x';
  const withProto = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
  const cases: unknown[] = [
    { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('t')], e: null },
    { n: NaN, i: Infinity, m: -Infinity, z: -0, arr: [NaN, -0] },
    sparse,
    { date: new Date(0), nested: { toJSON: () => 'custom' } },
    {
      map: new Map([[1, 2]]),
      set: new Set([1]),
      cls: new (class X {
        y = 1;
      })(),
    },
    { '2': 'b', '1': 'a', z: 'last', 10: 'ten' },
    withProto,
    'text',
    42,
    null,
  ];
  for (const c of cases) expectSameAsJson(c);
  const copy = cloneJson(withProto) as Record<string, unknown>;
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
  expect(cloneJson(undefined)).toBeUndefined();
});

test('a cycle fails as the JSON round trip fails', () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = { back: cyclic };
  expect(() => cloneJson(cyclic)).toThrow(TypeError);
});
