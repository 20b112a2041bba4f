import { defineGenerator, TrafficGenerator } from '../types';
import { check, claims } from './check';
import { capabilitiesOf, unsupportedFeatures } from './features';
import { Flavour } from './flavour';
import { HigressOptions } from './options';
import { render } from './render';
import { simulate } from './simulate';

/** A generator for one flavour; higress/index.ts and mse/index.ts differ only in the flavour and schema. */
export function flavouredGenerator(f: Flavour, optionsSchema: object, summary: string): TrafficGenerator {
  return defineGenerator<HigressOptions>({
    id: f.id,
    summary,
    capabilities: capabilitiesOf(f),
    optionsSchema,
    check: (ctx) => check(f, ctx),
    unsupported: (traffic) => unsupportedFeatures(f, traffic),
    claims: (ctx) => claims(f, ctx),
    render: (ctx, traffic) => render(f, ctx, traffic),
    simulate: (objects, request) => simulate(f, objects, request),
  });
}
