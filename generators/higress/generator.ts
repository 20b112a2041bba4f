import { defineGenerator, TrafficGenerator } from '../../src/contract/generator';
import { kruiseIngressInput } from '../_kit/ingress-inputs';
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
    /** Kruise `classType: <flavour id>`. */
    inputs: { kruiseIngress: kruiseIngressInput(f.id) },
    check: (ctx) => check(f, ctx),
    unsupported: (traffic) => unsupportedFeatures(f, traffic),
    claims: (ctx) => claims(f, ctx),
    render: (ctx, traffic) => render(f, ctx, traffic),
    simulate: (objects, request) => simulate(f, objects, request),
  });
}
