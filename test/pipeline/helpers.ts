// Shared test helpers: object builders, a seeded PRNG, and output normalisation.

import { parse } from 'yaml';
import {
  compilePipeline,
  type CompileOptions,
  type CompiledPipeline,
  type OutputEvent,
} from '../../src/pipeline/index.js';

export const modes = ['incremental', 'recompute'] as const;
export type Mode = (typeof modes)[number];

export const target = { apiVersion: 'view.dcontroller.io/v1alpha1', kind: 'view' };

export function yaml(text: string): unknown {
  return parse(text) as unknown;
}

export function obj(
  kind: string,
  ns: string | undefined,
  name: string,
  rest: Record<string, unknown> = {},
): Record<string, unknown> {
  const metadata: Record<string, unknown> = { name };
  if (ns !== undefined) metadata.namespace = ns;
  const extraMeta = (rest.metadata ?? {}) as Record<string, unknown>;
  return { apiVersion: 'v1', kind, ...rest, metadata: { ...metadata, ...extraMeta } };
}

export function compile(
  pipeline: unknown,
  mode: Mode,
  opts: Partial<CompileOptions> & { sources: string[] },
): CompiledPipeline {
  return compilePipeline(pipeline, { target, mode, now: () => new Date('2025-01-02T03:04:05.678Z'), ...opts });
}

/** `Type ns/name` lines: the shape most assertions need. */
export function brief(events: readonly OutputEvent[]): string[] {
  return events.map((e) => {
    const m = e.object.metadata as Record<string, unknown>;
    return `${e.type} ${typeof m.namespace === 'string' ? `${m.namespace}/` : ''}${String(m.name)}`;
  });
}

/** Deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)] as T;
}
