/**
 * Where the embedded server knowingly answers differently from kube-apiserver, by scenario name.
 * test/real/fidelity.test.ts fails on a difference not listed here and on an entry whose scenario
 * has become identical, so the list stays truthful; docs/embedded-apiserver.md explains them.
 */
export type DifferenceArea =
  /** OpenAPI schemas, events.k8s.io/v1, EndpointSlice and Δ-controller views. */
  | 'openapi-and-surface'
  /** Watch memory bounds, deep JSON, event TTL, 413, resourceVersion errors, scale/clusterIP 422. */
  | 'bad-input'
  /** Authentication and authorization: RBAC, tokens, ServiceAccount admission. */
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

const VALIDATION =
  'kube-apiserver validates every field of a built-in kind (pkg/apis/*/validation); the embedded server validates names, ObjectMeta, ConfigMap and Secret keys and immutability, selectors, Pods and pod templates (containers, ports, env, resources, probes, enums), LimitRanges, ResourceQuotas, HPAs, Services, Deployments, Jobs and Leases (src/apiserver/validation), and otherwise stores what it is given';
const GO_TEXT =
  "the text is Go's encoding/json error for this input, with the body echoed; the embedded server answers the same code and reason in its own words";
const NOT_SERVED =
  'kube-apiserver serves the pods/services/nodes proxy, pods/ephemeralcontainers and pods/resize subresources, which the embedded server does not (test/real/discovery-known-differences.ts lists each)';

/** One reason for several scenarios. */
const each = (area: DifferenceArea, reason: string, scenarios: string[]): KnownDifference[] =>
  scenarios.map((scenario) => ({ scenario, area, reason }));
const OPENAPI_DOCS =
  'the OpenAPI documents are being completed by the OpenAPI work (schemas, every path, security definitions)';
const AGGREGATED =
  'aggregated discovery (apidiscovery.k8s.io/v2) is not served: clients fall back to the legacy documents, which are compared too';

export const KNOWN_DIFFERENCES: KnownDifference[] = [
  {
    scenario: 'Pod: update',
    area: 'embedded',
    reason: `${VALIDATION}: the update is refused with the same cause, but kube-apiserver's text ends with a cmp.Diff of the two internal PodSpecs, which is not reproduced`,
  },
  {
    scenario: 'Job: update',
    area: 'embedded',
    reason: `${VALIDATION}: a PUT without the generated selector is refused with kube-apiserver's causes (ValidateJob and ValidateJobUpdate each list the missing selector and the template's mismatch), but its text shows the template as a Go struct dump, which is not reproduced`,
  },
  {
    scenario: 'Pod: update without a resourceVersion',
    area: 'embedded',
    reason:
      "the same refusal as 'Pod: update' (an unconditional PUT is allowed for Pods and validated alike): kube-apiserver's text ends with a cmp.Diff of the two internal PodSpecs, which is not reproduced",
  },
  {
    scenario: 'Job: update without a resourceVersion',
    area: 'embedded',
    reason:
      "the same refusal as 'Job: update' (an unconditional PUT is allowed for Jobs and validated alike): its text shows the template as a Go struct dump, which is not reproduced",
  },
  ...each('embedded', GO_TEXT, ['error: 400 malformed JSON', 'error: 400 body is not an object']),
  {
    scenario: 'error: 400 strict field validation unknown field',
    area: 'openapi-and-surface',
    reason:
      'strict field validation of built-in kinds needs their schemas, which the OpenAPI work adds; today only custom resources are checked',
  },
  {
    scenario: 'delete: DeleteOptions of the wrong kind',
    area: 'embedded',
    reason:
      'kube-apiserver answers 500 (no kind "ConfigMap" is registered for version "v1") for a DELETE body that is not DeleteOptions; the embedded server ignores the kind — reproducing a 500 is not worth it',
  },
  {
    scenario: 'create: uid and resourceVersion in the body are ignored',
    area: 'embedded',
    reason:
      'kube-apiserver answers 500 "resourceVersion should not be set on objects to be created"; the embedded server drops what the server owns, as kube-apiserver does for uid and creationTimestamp',
  },
  {
    scenario: 'CRD: create answer',
    area: 'embedded',
    reason:
      "kube-apiserver's CRD controllers accept the names after the create answers (acceptedNames are empty in the answer); the embedded server establishes a CRD as it stores it",
  },
  {
    scenario: 'CRD: invalid (no versions)',
    area: 'embedded',
    reason: 'CRD validation causes differ in detail (exactly one storage version, storedVersions)',
  },
  {
    scenario: 'apply: two managers share a field',
    area: 'embedded',
    reason:
      "when a second applier takes a shared field, kube-apiserver's field manager reorders the entries and drops the first one's time; the embedded server keeps both in order",
  },
  ...each('not-served', NOT_SERVED, ['discovery: /api/v1', 'discovery: /apis', 'discovery: /apis group names']),
  ...each('embedded', AGGREGATED, ['discovery: aggregated /api', 'discovery: aggregated /apis']),
  ...each('openapi-and-surface', OPENAPI_DOCS, [
    'openapi: /openapi/v2 shape',
    'openapi: /openapi/v3 api/v1 document shape',
    'openapi: /openapi/v3 apps/v1 document shape',
  ]),
  {
    scenario: 'openapi: /openapi/v2 info',
    area: 'openapi-and-surface',
    reason: 'the v2 document reports a fixed version, not the one the server is started with',
  },
  {
    scenario: 'openapi: /openapi/v3 index shape',
    area: 'openapi-and-surface',
    reason: 'kube-apiserver answers the v3 index with Content-Type text/plain',
  },
  {
    scenario: 'openapi: /openapi/v3 index group-versions',
    area: 'openapi-and-surface',
    reason: `the index lists what is served: ${NOT_SERVED}`,
  },
];
