import { Value } from '../../src/analysis/builtins';
import { assess } from '../../src/analysis/conditions';
import { compile, evaluate } from '../../src/analysis/expression';
import { MetricSpec } from '../../src/analysis/types';
import { condition, metricSpec } from '../helpers/analysis';

function run(source: string, result: Value): Value {
  const c = compile(source);
  if ('error' in c) throw new Error(`compile: ${c.error}`);
  return evaluate(c.node, { result });
}

describe("conditions in Argo's expression syntax", () => {
  test.each<[string, Value, Value]>([
    ['result[0] >= 0.95', [0.99], true],
    ['result[0] >= 0.95', [0.5], false],
    ['len(result) == 0 || isNaN(result[0])', [], true],
    ['len(result) == 0 || isNaN(result[0])', [NaN], true],
    ['len(result) == 0 || isNaN(result[0])', [1], false],
    ['isInf(result)', Infinity, true],
    ['result.status == "ok"', { status: 'ok' }, true],
    ["result.status == 'ok' and result.count > 2", { status: 'ok', count: 3 }, true],
    ['not (result > 1) or false', 0, true],
    ['all(result, {# < 0.1})', [0.01, 0.05], true],
    ['all(result, {# < 0.1})', [0.01, 0.5], false],
    ['any(result, {# > 0.4})', [0.01, 0.5], true],
    ['len(filter(result, {# > 0.4})) == 1', [0.01, 0.5], true],
    ['asInt(result) == 42', '42', true],
    ['asFloat(result) > 0.5', '0.75', true],
    ['isNil(result)', null, true],
    ['default(result, 7) == 7', null, true],
    ['result[-1] == 3', [1, 2, 3], true],
    ['"a" in result', ['a', 'b'], true],
    ['result.version matches "^v1\\\\."', { version: 'v1.2' }, true],
    ['result > 1 ? true : false', 2, true],
    ['result ?? 1', null, 1],
    ['sum(result) / len(result)', [1, 2, 3], 2],
    ['result.missing == nil', { a: 1 }, true],
  ])('%s with %j -> %j', (source, result, expected) => {
    expect(run(source, result)).toEqual(expected);
  });

  test.each([
    ['result[0] >=', /Expected expression/],
    ['size(result) > 1', /unknown function "size"/],
    ['process.exit(1)', /only the helper functions can be called/],
    ['process', /unknown name "process"/],
    ['constructor(1)', /unknown function "constructor"/],
    ['this.x', /`this` is not available/],
    ['result.constructor("x")', /only the helper functions can be called/],
    ['# > 1', /only available inside a \{predicate\}/],
  ])('refuses %s at plan time', (source, message) => {
    const c = compile(source);
    expect('error' in c && c.error).toMatch(message);
  });

  // jsep knows JavaScript's operators; expr-lang has none of these, so they are refused when planned, not at every measurement.
  test.each(['result === 1', 'result !== 1', 'result | 1', 'result & 1', 'result << 1', 'result >> 1', '~result'])(
    'refuses the JavaScript operator in %s at plan time',
    (source) => {
      const c = compile(source);
      expect('error' in c && c.error).toMatch(/operator .* is not available/);
    },
  );

  test('^ is the power operator, as in expr-lang', () => {
    expect(run('result ^ 2 == 9', 3)).toBe(true);
    expect(run('2 ^ 3 ^ 2', null)).toBe(512);
  });

  // expr-lang's unary operators bind looser than ** and ??: `-2 ** 2` is -(2 ** 2), `not result ?? true` is not (result ?? true).
  test.each<[string, Value, Value]>([
    ['-2 ** 2', null, -4],
    ['(-2) ** 2', null, 4],
    ['-2 ^ 2 == -4', null, true],
    ['-result ?? 0', null, -0],
    ['not result ?? false', null, true],
    ['!(result ?? false)', null, true],
    ['2 ** -1', null, 0.5],
    ['(result)[0] ** 2 == 9 && ((1 + 2)) * 3 == 9', [3], true],
    ['-(result.a) ** 2', { a: 3 }, -9],
  ])('unary operators bind as in expr-lang: %s with %j -> %j', (source, result, expected) => {
    expect(run(source, result)).toBe(expected);
  });

  test('member access reads own data only: no prototype, no functions', () => {
    expect(run('result.constructor == nil', {})).toBe(true);
    expect(run('result.__proto__ == nil', {})).toBe(true);
    expect(run('result["toString"] == nil', {})).toBe(true);
  });

  // expr-lang gives `??` the highest binary precedence: `result ?? 0 < 0.05` is `(result ?? 0) < 0.05`.
  test.each<[string, Value, Value]>([
    ['result ?? 0 < 0.05', 0.01, true],
    ['result ?? 0 < 0.05', 0.5, false],
    ['result ?? 0 < 0.05', null, true],
    ['result.rate ?? 1 > 0.05', { rate: 0.01 }, false],
    ['result.rate ?? 1 > 0.05', {}, true],
  ])('?? binds tighter than comparisons: %s with %j -> %j', (source, result, expected) => {
    expect(run(source, result)).toBe(expected);
  });

  // A predicate that is not a bool must not quietly count as false: `none(result, {#.error})` passed whatever the errors.
  test.each([
    ['none(result, {#.error})', [{ error: 'boom' }]],
    ['all(result, {#.ok})', [{ ok: 'yes' }]],
    ['any(result, {#})', [1]],
    ['one(result, {#})', [1]],
    ['len(filter(result, {#})) == 0', [1]],
    ['count(result, {#}) == 0', [1]],
  ])('a predicate must be a bool: %s with %j is an error', (source, result) => {
    expect(() => run(source, result)).toThrow(/expected bool, but got/);
  });

  test('runtime errors are readable: out of range, comparing nil', () => {
    expect(() => run('result[0] > 1', [])).toThrow(/index out of range: 0 \(len 0\)/);
    expect(() => run('result > 1', null)).toThrow(/invalid operation: nil > number 1/);
    expect(() => run('result', 1)).not.toThrow();
  });
});

describe("a measurement's phase (Argo EvaluateResult)", () => {
  const metric = (success?: string, failure?: string): MetricSpec =>
    metricSpec({
      ...(success ? { successCondition: condition(success) } : {}),
      ...(failure ? { failureCondition: condition(failure) } : {}),
    });

  test.each<[string | undefined, string | undefined, Value, string]>([
    [undefined, undefined, 1, 'Successful'],
    ['result > 1', undefined, 2, 'Successful'],
    ['result > 1', undefined, 0, 'Failed'],
    [undefined, 'result > 1', 0, 'Successful'],
    [undefined, 'result > 1', 2, 'Failed'],
    ['result > 5', 'result < 1', 3, 'Inconclusive'],
    ['result > 5', 'result < 1', 9, 'Successful'],
    // Both true: the failure condition wins.
    ['result > 0', 'result > 0', 1, 'Failed'],
    ['result', undefined, 1, 'Error'],
  ])('success %s, failure %s, result %j -> %s', (success, failure, result, phase) => {
    expect(assess(metric(success, failure), result).phase).toBe(phase);
  });

  test('a condition over an empty result says no data came back', () => {
    expect(assess(metric('result[0] > 1'), []).message).toBe(
      'could not evaluate successCondition "result[0] > 1": metric result is nil or empty: no data returned from the metric provider',
    );
  });
});
