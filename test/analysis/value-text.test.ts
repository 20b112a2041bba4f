/**
 * Values as Argo prints them: Go's strconv.FormatFloat(v, 'f', -1, 64) for Prometheus samples (the
 * expected strings below are what Go prints for each float64), json.Marshal for web values.
 */
import { firstNumber, formatJson, formatSample } from '../../src/analysis/value-text';

test.each([
  [0.8, '0.8'],
  [0.7 + 0.1, '0.7999999999999999'],
  [123, '123'],
  [1e-7, '0.0000001'],
  [-2.5e-7, '-0.00000025'],
  [1.2345e-10, '0.00000000012345'],
  [1e21, '1000000000000000000000'],
  [-1.5e25, '-15000000000000000000000000'],
  [Number.MAX_VALUE, `17976931348623157${'0'.repeat(292)}`],
  [Number.MIN_VALUE, `0.${'0'.repeat(323)}5`],
  [0, '0'],
  [-0, '-0'],
  [NaN, 'NaN'],
  [Infinity, '+Inf'],
  [-Infinity, '-Inf'],
])('formatSample(%p) is %p, and reads back as the same float64', (v, go) => {
  expect(formatSample(v)).toBe(go);
  if (Number.isFinite(v)) expect(Object.is(Number(formatSample(v)), v)).toBe(true);
});

test('formatJson writes what Go json.Marshal writes', () => {
  expect(formatJson({ b: [1e-7, 1e21, -0], a: 'x<y>&z\u2028', '\u{1F600}': 1, '\uFFFF': 2 })).toBe(
    '{"a":"x\\u003cy\\u003e\\u0026z\\u2028","b":[1e-7,1e+21,-0],"\uFFFF":2,"\u{1F600}":1}',
  );
  expect(formatJson(null)).toBe('null');
  expect(formatJson([true, 'a"b\n'])).toBe('[true,"a\\"b\\n"]');
});

test('firstNumber reads the first number of every form written above, exponents and infinities included', () => {
  expect(firstNumber('[1e+21,2]')).toBe(1e21);
  expect(firstNumber('[0.0000001]')).toBe(1e-7);
  expect(firstNumber('-Inf')).toBe(-Infinity);
  expect(firstNumber('{"a":"Info","b":7}')).toBe(7);
  expect(firstNumber('healthy')).toBeUndefined();
});
