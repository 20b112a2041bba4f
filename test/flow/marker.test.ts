import { Marker, formatMarker, parseMarker, withMarker } from '../../src/flow/marker';

const M: Marker = {
  v: 1,
  app: 'echo-->x <b>',
  target: 'step-2',
  revision: 'abc',
  stable: 'def',
  digest: '0123',
  origin: 'flow',
};

test('the marker round-trips and an app name cannot end the HTML comment early', () => {
  const text = formatMarker(M);
  expect(text.match(/-->/g)).toHaveLength(1);
  expect(parseMarker(`body\n\n${text}\n`)).toEqual(M);
});

test('withMarker replaces the marker at the end of a body and keeps the rest', () => {
  const once = withMarker('Hello\r\n', M);
  const twice = withMarker(once, { ...M, noted: true });
  expect(twice.startsWith('Hello\n\n<!-- rollgen: ')).toBe(true);
  expect(twice.match(/<!-- rollgen:/g)).toHaveLength(1);
  expect(parseMarker(twice)).toEqual({ ...M, noted: true });
});

test('a marker a person wrote text below is still found, and withMarker moves it back to the end', () => {
  const body = `Hello\n\n${formatMarker(M)}\nsigned, Ada`;
  expect(parseMarker(body)).toEqual(M);
  expect(withMarker(body, M)).toBe(`Hello\nsigned, Ada\n\n${formatMarker(M)}\n`);
});

test.each([
  'no marker',
  '<!-- rollgen: not json -->',
  '<!-- rollgen: {"v":2,"app":"a","target":"step-1","revision":"r","stable":"s","digest":"d","origin":"flow"} -->',
  '<!-- rollgen: {"v":1,"app":"a","target":"step-1","revision":"r","stable":"s","digest":"d","origin":"someone"} -->',
])('%j is not a marker', (body) => {
  expect(parseMarker(body)).toBeUndefined();
});
