// The data of the differential fidelity check: each scenario is a short sequence of HTTP requests
// sent unchanged to the real kube-apiserver and to the embedded server, whose normalised answers
// are compared (runner.ts). Scenarios live in scenarios/*.ts by area.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What of a step's answer is compared: everything (status, Content-Type, normalised body), only
 * the status code (a setup step whose body is checked elsewhere), or nothing (cleanup).
 */
export type Compare = 'full' | 'status' | 'none';

export interface Step {
  method: Method;
  /** `{ns}` is the scenario's namespace; `${var}` a value an earlier step captured. */
  path: string;
  headers?: Record<string, string>;
  /** A JSON value (serialised) or a raw string sent as is; `{ns}` and `${var}` are substituted in both. */
  body?: unknown;
  compare?: Compare;
  /** Only this dotted path of the body is compared (e.g. `spec` for a defaulting check). */
  select?: string;
  /** Dotted paths removed from both bodies before comparing (values that are allowed to differ). */
  ignore?: string[];
  /** Compare only the shape (keys and value types, two levels deep): documents whose content is not compared. */
  shape?: boolean;
  /** A watch: read this many events, then close the connection. */
  watchEvents?: number;
  /** Values read from this step's body by dotted path, for `${var}` in later steps (per server). */
  capture?: Record<string, string>;
}

export interface Scenario {
  /** Unique; the known-differences list names scenarios by it. */
  name: string;
  steps: Step[];
  /** The scenario needs no namespace of its own (discovery, OpenAPI, cluster-scoped kinds). */
  noNamespace?: boolean;
}

export const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };
export const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };
export const STRATEGIC_PATCH = { 'Content-Type': 'application/strategic-merge-patch+json' };
export const APPLY_PATCH = { 'Content-Type': 'application/apply-patch+yaml' };
export const AS_TABLE = { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' };

export const get = (path: string, more: Partial<Step> = {}): Step => ({ method: 'GET', path, ...more });
export const post = (path: string, body: unknown, more: Partial<Step> = {}): Step => ({
  method: 'POST',
  path,
  body,
  ...more,
});
export const put = (path: string, body: unknown, more: Partial<Step> = {}): Step => ({
  method: 'PUT',
  path,
  body,
  ...more,
});
export const del = (path: string, body?: unknown, more: Partial<Step> = {}): Step => ({
  method: 'DELETE',
  path,
  ...(body === undefined ? {} : { body }),
  ...more,
});
export const patch = (
  path: string,
  headers: Record<string, string>,
  body: unknown,
  more: Partial<Step> = {},
): Step => ({ method: 'PATCH', path, headers, body, ...more });
/** A setup step: only its status code is compared. */
export const setup = (step: Step): Step => ({ ...step, compare: 'status' });

/**
 * A setup step that makes the ServiceAccount `name` in the scenario's namespace: the real side runs
 * without kube-controller-manager, so no `default` one exists, and ServiceAccount admission refuses a
 * Pod whose account is missing.
 */
export const serviceAccountStep = (name = 'sa'): Step =>
  setup(
    post('/api/v1/namespaces/{ns}/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } }),
  );
