// The kinds the fuzzer covers: every built-in kind the embedded server serves as stored objects
// (registry/builtins.ts), each with its smallest valid object (seeds.ts). The schema of each comes from
// the vendored OpenAPI (schema.ts). A served kind with no seed and no reason to leave it out is an error,
// so a kind added to the server is fuzzed from its first run.
import { BUILTIN_TYPES } from '../../src/apiserver/registry/builtins.js';
import type { JsonObject, ResourceType } from '../../src/apiserver/registry/types.js';
import { SEEDS, type Seed, type SeedContext } from './seeds.js';

export interface FuzzKind {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  status: boolean;
  /** `apiVersion Kind`, how cases and the per-kind figures name it (`autoscaling/v1 HorizontalPodAutoscaler`). */
  label: string;
  seed: Seed['object'];
  name: (id: number) => string;
  /** The kind's objects go to a namespace of their own (they act on every object of theirs). */
  isolated: boolean;
}

/**
 * Served kinds without stored objects to fuzz: create-only reviews and bindings (verbs `create`), and
 * componentstatuses (get and list). Their requests are compared by the scenario suite.
 */
const storedKind = (t: ResourceType): boolean => !t.custom && (t.verbs === undefined || t.verbs.includes('update'));

/**
 * ResourceQuota and LimitRange admission act on every object of their namespace (a quota without status
 * refuses every create there).
 */
const ISOLATED = new Set(['/v1/ResourceQuota', '/v1/LimitRange']);

export const kindKey = (t: { group: string; version: string; kind: string }): string =>
  `${t.group}/${t.version}/${t.kind}`;

function fuzzKind(t: ResourceType): FuzzKind {
  const key = kindKey(t);
  const seed = SEEDS[key];
  if (!seed) throw new Error(`bench/fuzz/seeds.ts has no minimal object for the served kind ${key}`);
  return {
    group: t.group,
    version: t.version,
    kind: t.kind,
    plural: t.plural,
    namespaced: t.namespaced,
    status: t.statusSubresource,
    label: `${t.group ? `${t.group}/${t.version}` : t.version} ${t.kind}`,
    seed: seed.object,
    name: seed.name ?? ((id) => `fz-${id}`),
    isolated: ISOLATED.has(key),
  };
}

/** FUZZ_KINDS=<substring> keeps the kinds whose label contains it (for working on one group). */
const only = process.env.FUZZ_KINDS;

/** Every stored built-in kind with its seed, whatever FUZZ_KINDS says (the scenario suite's per-kind verbs use it too). */
export const STORED_KINDS: FuzzKind[] = BUILTIN_TYPES.filter(storedKind).map(fuzzKind);

export const FUZZ_KINDS: FuzzKind[] = STORED_KINDS.filter(
  (k) => !only || only.split(',').some((o) => k.label.includes(o)),
);

export const apiVersionOfKind = (k: FuzzKind): string => (k.group ? `${k.group}/${k.version}` : k.version);

/** The namespace of kinds that must be kept apart from the rest (ISOLATED). */
export const isolatedNamespace = (ns: string): string => `${ns}-isolated`;

export function collectionPath(k: FuzzKind, ns: string): string {
  const base = k.group ? `/apis/${k.group}/${k.version}` : `/api/${k.version}`;
  const where = k.isolated ? isolatedNamespace(ns) : ns;
  return k.namespaced ? `${base}/namespaces/${where}/${k.plural}` : `${base}/${k.plural}`;
}

/** The seed object of a case, with its apiVersion, kind and name. */
export function baseObject(k: FuzzKind, c: SeedContext): JsonObject {
  return { apiVersion: apiVersionOfKind(k), kind: k.kind, metadata: { name: k.name(c.id) }, ...k.seed(c) };
}
