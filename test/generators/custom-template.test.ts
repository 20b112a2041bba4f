import { buildTemplateData } from '../../generators/custom/data';
import { sourceOrigin, templateLineOf } from '../../generators/custom/line-map';
import { renderObject } from '../../generators/custom/render';
import { compileTemplate, runTemplate, TemplateError } from '../../generators/custom/template';
import type { KubeObject } from '../../src/model/kube';
import { stableTraffic, TrafficState } from '../../src/model/plan';
import { readRouteTemplate, RouteTemplateInput } from '../../generators/custom/route-template';
import { parseYamlStream } from '../../src/yaml/parse';

const original: KubeObject = {
  apiVersion: 'example.com/v1',
  kind: 'Route',
  metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } },
  spec: { backend: 'web', port: 80 },
};

const traffic = (over: Partial<TrafficState> = {}): TrafficState => ({ ...stableTraffic(100), weight: 30, ...over });
const data = (t: TrafficState = traffic()) => buildTemplateData(original, t, 'web', 'web-canary');

/** Template line N sits on file line 10 + N, indented 4 (what readRouteTemplate gives for a `|` block at line 10). */
const input = (template: string, lineMapped = true): RouteTemplateInput => ({
  name: 'route',
  group: 'example.com',
  kind: 'Route',
  template,
  origin: { file: 'apps/web/template.yaml', line: 11, col: 5 },
  lineMapped,
});

function errorOf(fn: () => unknown): TemplateError {
  try {
    fn();
  } catch (e) {
    if (e instanceof TemplateError) return e;
    throw e;
  }
  throw new Error('expected a TemplateError');
}

describe('compiling a route template', () => {
  test('GIVEN the built-in block helpers WHEN rendered THEN they work and output is not HTML-escaped', () => {
    const t = compileTemplate(
      input(
        '{{#each step.matches}}{{#each headers}}{{name}}={{value}}{{#if exact}} exact{{/if}}{{/each}}{{/each}}{{#unless step.hasWeight}}none{{/unless}}{{#with step}} {{weight}}{{/with}}',
      ),
    );
    const matches = [
      { headers: [{ name: 'x-user', type: 'Exact' as const, value: '<a&b>' }], queryParams: [], cookies: [] },
    ];
    expect(runTemplate(t, data(traffic({ matches })))).toBe('x-user=<a&b> exact 30');
  });

  test.each([
    ['a custom helper', 'a: {{json original}}', /unknown helper json/],
    ['log', 'a: {{log "x"}}', /unknown helper log/],
    ['lookup', 'a: {{lookup original "kind"}}', /unknown helper lookup/],
    ['a partial', 'a: 1\n  {{> shared}}', /partials .* are not allowed/],
  ])('GIVEN %s WHEN compiled THEN it is refused at its line', (_, text, message) => {
    const e = errorOf(() => compileTemplate(input(text)));
    expect(e.message).toMatch(message);
    expect(e.line).toBe(text.split('\n').length);
  });

  test('GIVEN a syntax error on line 3 WHEN compiled THEN the error names line 3', () => {
    const e = errorOf(() => compileTemplate(input('a: 1\nb: 2\nc: {{step.weight}\n')));
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/^template syntax error: /);
  });

  test('GIVEN a field the data lacks WHEN rendered THEN strict mode fails at its line and column', () => {
    const t = compileTemplate(input('a: 1\nb: {{original.spec.missing}}'));
    const e = errorOf(() => runTemplate(t, data()));
    expect([e.line, e.column, e.message]).toEqual([2, 5, 'template error: "missing" not defined']);
  });
});

describe('template data', () => {
  test('GIVEN a weighted step with a regex header, a path prefix and a header modifier THEN the data has the documented shape', () => {
    const t = traffic({
      weight: 25,
      matches: [
        {
          headers: [{ name: 'ua', type: 'RegularExpression', value: '.*Android.*' }],
          queryParams: [],
          cookies: [],
          path: { type: 'PathPrefix', value: '/api' },
        },
      ],
      requestHeaderModifier: { set: [{ name: 'x-track', value: 'canary' }], add: [], remove: [] },
    });
    const d = buildTemplateData(original, t, 'web', 'web');
    expect(d.step).toEqual({
      canary: true,
      weight: 25,
      weightTotal: 100,
      stableWeight: 75,
      hasWeight: true,
      matches: [
        {
          headers: [
            { name: 'ua', type: 'RegularExpression', value: '.*Android.*', exact: false, prefix: false, regex: true },
          ],
          queryParams: [],
          cookies: [],
          path: { type: 'PathPrefix', value: '/api', exact: false, prefix: true, regex: false },
        },
      ],
      hasMatches: true,
      requestHeaderModifier: { set: [{ name: 'x-track', value: 'canary' }], add: [], remove: [] },
      hasRequestHeaderModifier: true,
      canaryService: 'web',
      stableService: 'web',
      sharedService: true,
    });
    expect(JSON.parse(d.originalJson.metadata)).toEqual(original.metadata);
    expect(JSON.parse(d.originalJson.spec)).toEqual(original.spec);
    expect(d.originalJson.annotations).toBe('{}');
  });

  test('GIVEN a step without a modifier THEN it is an empty modifier the template can iterate', () => {
    expect(data().step.requestHeaderModifier).toEqual({ set: [], add: [], remove: [] });
    expect(data().step.hasRequestHeaderModifier).toBe(false);
  });
});

describe('output checks and line mapping', () => {
  const header = 'apiVersion: {{original.apiVersion}}\nkind: {{original.kind}}\nmetadata: {{originalJson.metadata}}\n';

  test('GIVEN a valid template THEN the output is re-parsed into the object', () => {
    const t = compileTemplate(input(`${header}spec:\n  weight: {{step.weight}}\n`));
    expect(renderObject(t, data())).toEqual({ ...original, spec: { weight: 30 } });
  });

  test.each([
    [
      'another name',
      'apiVersion: example.com/v1\nkind: Route\nmetadata:\n  namespace: shop\n  name: other\n',
      5,
      /metadata\.name is "other"; it must be "web"/,
    ],
    [
      'another kind',
      'apiVersion: example.com/v1\nkind: Ingress\nmetadata: {{originalJson.metadata}}\n',
      2,
      /kind is "Ingress"; it must be "Route"/,
    ],
    [
      'another group',
      'apiVersion: other.io/v1\nkind: Route\nmetadata: {{originalJson.metadata}}\n',
      1,
      /must be in the group of example\.com\/v1/,
    ],
    [
      'no namespace',
      'apiVersion: example.com/v1\nkind: Route\nmetadata:\n  name: web\n',
      4,
      /metadata\.namespace is missing; it must be "shop"/,
    ],
    ['two documents', `${header}---\n${header}`, 5, /2 YAML documents/],
  ])('GIVEN output with %s THEN the error names the template line that wrote it', (_, text, line, message) => {
    const e = errorOf(() => renderObject(compileTemplate(input(text)), data()));
    expect(e.message).toMatch(message);
    expect(e.line).toBe(line);
  });

  test('GIVEN a YAML error after an {{#each}} that repeats lines THEN output lines map back to the template line', () => {
    // Output: 3 header lines, spec, 2 lines per match (2 matches), then the bad line 10 of the output.
    const text = `${header}spec:\n  routes:\n{{#each step.matches}}\n    - name: m{{@index}}\n      canary: true\n{{/each}}\n   bad: indentation\n`;
    const matches = [0, 1].map(() => ({ headers: [], queryParams: [], cookies: [] }));
    const d = data(traffic({ matches }));
    const e = errorOf(() => renderObject(compileTemplate(input(text)), d));
    expect(e.message).toMatch(/not valid YAML/);
    expect(e.line).toBe(10);
    expect(templateLineOf(text, d, 6)).toBe(7); // first match: "- name", then "canary"
    expect(templateLineOf(text, d, 7)).toBe(8);
    expect(templateLineOf(text, d, 8)).toBe(7); // second match
    expect(templateLineOf(text, d, 9)).toBe(8);
  });

  test('GIVEN a data value spanning lines THEN the line maps to the template line that ends it', () => {
    const text = 'a: |\n  {{step.stableService}}\nb: 1\n';
    const d = buildTemplateData(original, traffic(), 'one\n  two', 'c');
    expect(templateLineOf(text, d, 2)).toBe(2);
    expect(templateLineOf(text, d, 3)).toBe(2);
    expect(templateLineOf(text, d, 4)).toBe(3);
  });

  test('GIVEN a template in a literal block THEN template line and column map into the file; otherwise to the template', () => {
    expect(sourceOrigin(input('x'), 3, 6)).toEqual({ file: 'apps/web/template.yaml', line: 13, col: 11 });
    expect(sourceOrigin(input('x', false), 3, 6)).toEqual({ file: 'apps/web/template.yaml', line: 11, col: 5 });
  });
});

describe('reading a RouteTemplate document', () => {
  const doc = (template: string) => {
    const text = `apiVersion: rollgen.dev/v1alpha1\nkind: RouteTemplate\nmetadata: {name: t}\nspec:\n  target: {apiVersion: traefik.io/v1alpha1, kind: TraefikService}\n  template: ${template}\n`;
    return parseYamlStream('apps/web/t.yaml', text).documents[0];
  };

  test('GIVEN a literal block with a leading blank line THEN line 1 is the line after the header, at its indentation', () => {
    const t = readRouteTemplate(doc('|-\n\n      a: 1\n      b: 2'));
    expect(t).toMatchObject({
      group: 'traefik.io',
      kind: 'TraefikService',
      template: '\na: 1\nb: 2',
      lineMapped: true,
      origin: { line: 7, col: 7 },
    });
  });

  test('GIVEN a quoted template THEN it is not line-mapped and points at the value', () => {
    expect(readRouteTemplate(doc('"a: 1"'))).toMatchObject({ lineMapped: false, origin: { line: 6, col: 13 } });
  });
});
