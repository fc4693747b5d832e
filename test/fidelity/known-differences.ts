/**
 * Where the embedded server knowingly answers differently from kube-apiserver, by scenario name.
 * test/real/fidelity.test.ts fails on a difference not listed here and on an entry whose scenario
 * has become identical, so the list stays truthful; docs/embedded-apiserver.md explains them.
 */
export type DifferenceArea =
  /** OpenAPI schemas, events.k8s.io/v1, EndpointSlice and Δ-controller views (another helper's work). */
  | 'openapi-and-surface'
  /** Watch memory bounds, deep JSON, event TTL, 413, resourceVersion errors, scale/clusterIP 422 (another helper's work). */
  | 'bad-input'
  /** Authentication and authorization: RBAC, tokens, ServiceAccount admission (another helper's work). */
  | 'auth'
  /** Not served by the embedded server on purpose (kinds and groups FlowOps does not need). */
  | 'not-served'
  /** Behaviour of the embedded server that is larger to change than it is worth; the reason says why. */
  | 'embedded';

export interface KnownDifference {
  scenario: string;
  area: DifferenceArea;
  reason: string;
}

export const KNOWN_DIFFERENCES: KnownDifference[] = [];
