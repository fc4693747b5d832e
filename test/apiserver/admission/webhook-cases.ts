import type { WebhookServer } from '../../helpers/webhook-server.js';

/**
 * One table of admission webhook cases, sent to the embedded server by
 * test/apiserver/admission-webhooks.test.ts and to the real kube-apiserver beside it by
 * test/real/admission-side-by-side.test.ts. Each case is a ConfigMap create labelled `case: <name>`;
 * each webhook's objectSelector picks its own case, so the cases do not see each other's webhooks.
 */
export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  warnings: string[];
}

export type ApiCall = (method: string, path: string, body?: unknown) => Promise<ApiAnswer>;

type Json = Record<string, unknown>;

function hook(wh: WebhookServer, name: string, path: string, extra: Json = {}, caBundle = wh.caBundle): Json {
  return {
    name: `${name}.example.com`,
    admissionReviewVersions: ['v1'],
    sideEffects: 'None',
    timeoutSeconds: 2,
    clientConfig: { url: wh.url + path, caBundle },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { case: name } },
    ...extra,
  };
}

/** The configurations: `wh` answers, `otherCa` is a CA that did not sign its certificate. */
export function webhookConfigurations(wh: WebhookServer, otherCa: string): Json[] {
  const validating = [
    hook(wh, 'deny', '/deny'),
    hook(wh, 'deny-code', '/deny-code'),
    hook(wh, 'deny-bare', '/deny-bare'),
    hook(wh, 'hang', '/hang'),
    hook(wh, 'garbage', '/garbage'),
    hook(wh, 'tls', '/allow', {}, otherCa),
    hook(wh, 'hang-ignore', '/hang', { failurePolicy: 'Ignore' }),
    hook(wh, 'garbage-ignore', '/garbage', { failurePolicy: 'Ignore' }),
    hook(wh, 'warn', '/warn'),
    hook(wh, 'update-only', '/deny', {
      rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    }),
    hook(wh, 'condition', '/deny', {
      matchConditions: [{ name: 'bad-names', expression: "object.metadata.name.startsWith('bad')" }],
    }),
    hook(wh, 'strict-ns', '/deny', { objectSelector: {}, namespaceSelector: { matchLabels: { admission: 'strict' } } }),
    hook(wh, 'exact', '/deny', {
      matchPolicy: 'Exact',
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v2'], resources: ['configmaps'] }],
    }),
  ];
  const mutating = [
    hook(wh, 'label', '/label'),
    hook(wh, 'bad-patch', '/bad-patch'),
    hook(wh, 'label-then-deny', '/label'),
  ];
  const labelThenDeny = hook(wh, 'label-then-deny', '/deny', {
    name: 'label-then-deny-v.example.com',
    objectSelector: { matchLabels: { mutated: 'yes', case: 'label-then-deny' } },
  });
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'cases' },
      webhooks: [...validating, labelThenDeny],
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'cases' },
      webhooks: mutating,
    },
  ];
}

export interface Case {
  name: string;
  /** Object name (default c-<case>). */
  object?: string;
  namespace?: string;
  query?: string;
  /** Created first, then updated (the webhook sees the update). */
  update?: boolean;
}

export const CASES: Case[] = [
  { name: 'deny' },
  { name: 'deny-code' },
  { name: 'deny-bare' },
  { name: 'hang' },
  { name: 'garbage' },
  { name: 'tls' },
  { name: 'hang-ignore' },
  { name: 'garbage-ignore' },
  { name: 'warn' },
  { name: 'label' },
  { name: 'label', object: 'c-label-dry', query: '?dryRun=All' },
  { name: 'bad-patch' },
  { name: 'label-then-deny' },
  { name: 'update-only' },
  { name: 'update-only', object: 'c-update-only-2', update: true },
  { name: 'condition' },
  { name: 'condition', object: 'bad-condition' },
  { name: 'strict-ns', namespace: 'strict' },
  { name: 'strict-ns' },
  { name: 'exact' },
];

export const caseKey = (c: Case) =>
  `${c.name}/${c.object ?? `c-${c.name}`}${c.namespace ? `@${c.namespace}` : ''}` +
  `${c.query ?? ''}${c.update ? '+update' : ''}`;

/** What a case answers: status, reason, message and the labels of what was stored. */
export interface CaseOutcome {
  status: number;
  reason: unknown;
  message: unknown;
  code: unknown;
  causes: unknown;
  labels: unknown;
  warnings: string[];
}

export async function runCase(call: ApiCall, c: Case): Promise<CaseOutcome> {
  const ns = c.namespace ?? 'default';
  const name = c.object ?? `c-${c.name}`;
  const cm = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: ns, labels: { case: c.name } },
    data: { a: '1' },
  };
  let r = await call('POST', `/api/v1/namespaces/${ns}/configmaps${c.query ?? ''}`, cm);
  if (c.update && r.status === 201) {
    r = await call('PUT', `/api/v1/namespaces/${ns}/configmaps/${name}`, { ...cm, data: { a: '2' } });
  }
  const meta = r.body.metadata as { labels?: unknown } | undefined;
  const details = r.body.details as { causes?: unknown } | undefined;
  return {
    status: r.status,
    reason: r.body.reason,
    message: r.body.message,
    code: r.body.code,
    causes: details?.causes,
    labels: r.body.kind === 'ConfigMap' ? meta?.labels : undefined,
    warnings: r.warnings,
  };
}

/** Setup both servers share: the namespace the namespaceSelector case selects, and the configurations. */
export async function installCases(call: ApiCall, wh: WebhookServer, otherCa: string): Promise<void> {
  const ns = await call('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'strict', labels: { admission: 'strict' } },
  });
  if (ns.status !== 201) throw new Error(`namespace strict: ${ns.status} ${JSON.stringify(ns.body)}`);
  for (const cfg of webhookConfigurations(wh, otherCa)) {
    const kind =
      cfg.kind === 'MutatingWebhookConfiguration' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
    const r = await call('POST', `/apis/admissionregistration.k8s.io/v1/${kind}`, cfg);
    if (r.status !== 201) throw new Error(`${kind}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}
