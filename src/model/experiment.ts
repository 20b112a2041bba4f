/** The pod label that tells an experiment's pods apart (Argo gives them a pod-template-hash of their own). */
export const EXPERIMENT_LABEL = 'rollgen.dev/experiment';

const MAX_LABEL = 63;

/**
 * The name of an experiment template's Deployment (and default Service), and the value of its pods'
 * EXPERIMENT_LABEL: `<rollout>-step-<N>-<template>`, a DNS-1123 label; one too long keeps its start
 * and ends in a hash of the whole. What `{{templates.<name>.podTemplateHash}}` and
 * `{{templates.<name>.replicaset.name}}` stand for in the experiment's analysis args.
 */
export function experimentWorkloadName(rollout: string, step: number, template: string): string {
  const whole = `${rollout}-step-${step}-${template}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
  if (whole.length <= MAX_LABEL) return whole;
  const hash = fnv1a(whole).toString(16).padStart(8, '0');
  return `${whole.slice(0, MAX_LABEL - hash.length - 1).replace(/-+$/, '')}-${hash}`;
}

/** 32-bit FNV-1a: a short, stable digest for names (not for security). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
