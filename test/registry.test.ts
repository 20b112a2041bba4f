import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import { listGenerators } from '../generators/registry';
import { VALIDATOR_IDS, validatorFor } from '../src/spec/generated';

/** Meta-tests over the provider registry: every generator is complete, documented and tested. */
const GENERATORS = path.join(__dirname, '..', 'generators');
const GOLDEN = path.join(__dirname, 'golden');
/** Provider folders; `_kit` holds code shared by several providers (e.g. the canary Ingress), not a provider. */
const folders = fs
  .readdirSync(GENERATORS)
  .filter((f) => fs.statSync(path.join(GENERATORS, f)).isDirectory() && !f.startsWith('_'));

test('every generator folder is registered, and every registered id is a folder', () => {
  expect(
    listGenerators()
      .map((g) => g.id)
      .sort(),
  ).toEqual([...folders].sort());
});

describe.each(listGenerators().map((g) => [g.id, g] as const))('generator %s', (id, g) => {
  test('has a README', () => {
    expect(fs.readFileSync(path.join(GENERATORS, id, 'README.md'), 'utf8').length).toBeGreaterThan(200);
  });

  test('its options schema compiles and is precompiled under its $id', () => {
    expect(() => new Ajv({ strict: false }).compile(g.optionsSchema)).not.toThrow();
    expect((g.optionsSchema as { $id?: string }).$id).toBe(`${id}-options`);
    expect(VALIDATOR_IDS).toContain(`${id}-options`);
    expect(typeof validatorFor(`${id}-options` as (typeof VALIDATOR_IDS)[number])).toBe('function');
  });

  test('has golden success and error cases', () => {
    const cases = fs.readdirSync(path.join(GOLDEN, id));
    expect(cases.some((c) => fs.existsSync(path.join(GOLDEN, id, c, 'expected')))).toBe(true);
    expect(cases.some((c) => fs.existsSync(path.join(GOLDEN, id, c, 'errors.txt')))).toBe(true);
  });
});
