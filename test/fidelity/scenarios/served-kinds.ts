import { STORED_KINDS, apiVersionOfKind, type FuzzKind } from '../../../bench/fuzz/kinds.js';
import { KINDS, type KindSpec } from './kinds.js';

// The per-kind verbs (crud.ts) run for every stored built-in kind the embedded server serves, not
// only for the kinds kinds.ts describes by hand: a kind without a hand-written entry takes the
// differential fuzzer's smallest valid object (bench/fuzz/seeds.ts), so a kind added to the server is
// covered by the scenario suite from its first run, as the fuzzer covers it.

/**
 * Kinds whose object name is constrained by what the object says (a CRD's `<plural>.<group>`, an
 * APIService's `<version>.<group>`, an IPAddress's canonical address), so a per-scenario name cannot
 * be given; the fuzzer covers them with its own names, and discovery.ts and misc.ts by hand.
 */
const NAME_BOUND = new Set(['CustomResourceDefinition', 'APIService', 'IPAddress']);

/**
 * Kinds a controller inside kube-apiserver writes to moments after each write, so what a scenario's
 * next step reads races it: the API Priority and Fairness config consumer stamps every FlowSchema's
 * Dangling condition. The embedded server has no such controller (its flowcontrol objects are stored
 * and validated, never acted on); bench/fuzz covers the kind's validation.
 */
const WRITTEN_BY_THE_SERVER = new Set(['FlowSchema']);

const key = (apiVersion: string, kind: string): string => `${apiVersion} ${kind}`;
const described = new Set(KINDS.map((k) => key(k.apiVersion, k.kind)));

const describedNames = new Set(KINDS.map((k) => k.kind));

function kindSpec(k: FuzzKind): KindSpec {
  return {
    ...(describedNames.has(k.kind) ? { label: k.label } : {}),
    kind: k.kind,
    apiVersion: apiVersionOfKind(k),
    plural: k.plural,
    namespaced: k.namespaced,
    // `{ns}` in the seed is the scenario's namespace, substituted when the step is sent.
    minimal: k.seed({ id: 0, ns: '{ns}' }),
  };
}

/** Served kinds kinds.ts does not describe, in the server's order. */
export const SEEDED_KINDS: KindSpec[] = STORED_KINDS.filter(
  (k) =>
    !NAME_BOUND.has(k.kind) && !WRITTEN_BY_THE_SERVER.has(k.kind) && !described.has(key(apiVersionOfKind(k), k.kind)),
).map(kindSpec);

/** Whether a kind has a status subresource (the fixture CRD's Widget has one). */
export function hasStatus(k: KindSpec): boolean {
  if (k.custom) return true;
  return STORED_KINDS.some((s) => s.status && s.kind === k.kind && apiVersionOfKind(s) === k.apiVersion);
}
