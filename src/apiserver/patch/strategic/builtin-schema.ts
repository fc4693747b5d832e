import type { JsonPrimitive } from './json.js';

/**
 * Patch metadata of one field of a built-in kind: the `patchStrategy` /
 * `patchMergeKey` struct tags (strategic merge patch) and the `+listType` /
 * `+listMapKey` / `+structType` markers (server-side apply) from k8s.io/api.
 * Fields that are absent here are plain maps (merged) or atomic lists (replaced),
 * which is the default for both engines, so only the exceptions are listed.
 */
export interface FieldSchema {
  /** SMP `patchMergeKey`: list of objects merged element-wise by this key. */
  readonly mergeKey?: string;
  /** SMP `patchStrategy:"merge"` on a list of scalars (set union); SSA `listType=set`. */
  readonly mergeScalars?: true;
  /** SMP `patchStrategy:"replace"` on an object: the patch value replaces it wholesale. */
  readonly replaceMap?: true;
  /** SSA `+listMapKey`s, when they differ from `[mergeKey]` or the list has no SMP key. */
  readonly mapKeys?: readonly string[];
  /** Defaults the real server fills into missing key fields before SSA sees them. */
  readonly keyDefaults?: Readonly<Record<string, JsonPrimitive>>;
  /** `+structType=atomic` / `+mapType=atomic`: SSA owns the whole object as one leaf. */
  readonly atomicMap?: true;
  /** Fields of this object, or of each element when this is a list of objects. */
  readonly fields?: Readonly<Record<string, FieldSchema>>;
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

const byKey = (
  key: string,
  fields?: Record<string, FieldSchema>,
  extra?: Omit<FieldSchema, 'mergeKey' | 'fields'>,
): FieldSchema => ({
  mergeKey: key,
  ...(fields ? { fields } : {}),
  ...extra,
});

const conditions = byKey('type');
const labelSelector: FieldSchema = { atomicMap: true };

const objectMeta: FieldSchema = {
  fields: {
    finalizers: { mergeScalars: true },
    ownerReferences: byKey('uid'),
  },
};

const containerFields: Record<string, FieldSchema> = {
  // SSA keys ports by (containerPort, protocol); protocol defaults to TCP.
  ports: byKey('containerPort', undefined, {
    mapKeys: ['containerPort', 'protocol'],
    keyDefaults: { protocol: 'TCP' },
  }),
  env: byKey('name'),
  volumeMounts: byKey('mountPath'),
  volumeDevices: byKey('devicePath'),
  resources: { fields: { claims: { mapKeys: ['name'] } } },
};

// `tolerations`, `readinessGates`, `args`, `command`, `envFrom` carry no patch
// strategy in k8s.io/api, so both engines replace them wholesale.
const podSpec: FieldSchema = {
  fields: {
    containers: byKey('name', containerFields),
    initContainers: byKey('name', containerFields),
    ephemeralContainers: byKey('name', containerFields),
    volumes: byKey('name'),
    imagePullSecrets: byKey('name'),
    hostAliases: byKey('ip'),
    topologySpreadConstraints: byKey('topologyKey', undefined, { mapKeys: ['topologyKey', 'whenUnsatisfiable'] }),
    resourceClaims: byKey('name'),
    schedulingGates: byKey('name'),
  },
};

const podStatus: FieldSchema = {
  fields: {
    conditions,
    podIPs: byKey('ip'),
    hostIPs: byKey('ip'),
    resourceClaimStatuses: byKey('name'),
  },
};

const podTemplateSpec: FieldSchema = { fields: { metadata: objectMeta, spec: podSpec } };
const conditionsOnly: FieldSchema = { fields: { conditions } };

const workload: FieldSchema = {
  fields: {
    spec: { fields: { selector: labelSelector, template: podTemplateSpec } },
    status: conditionsOnly,
  },
};

const jobSpec: FieldSchema = { fields: { selector: labelSelector, template: podTemplateSpec } };

const webhook: FieldSchema = byKey('name', { matchConditions: byKey('name') });

/** Keyed by `group/Kind`; versions of one kind share their patch metadata. */
const KINDS: Readonly<Record<string, FieldSchema>> = {
  '/Pod': { fields: { spec: podSpec, status: podStatus } },
  '/PodTemplate': { fields: { template: podTemplateSpec } },
  '/ReplicationController': { fields: { spec: { fields: { template: podTemplateSpec } }, status: conditionsOnly } },
  '/Service': {
    fields: {
      spec: {
        fields: {
          ports: byKey('port', undefined, { mapKeys: ['port', 'protocol'], keyDefaults: { protocol: 'TCP' } }),
          selector: { atomicMap: true },
        },
      },
      status: conditionsOnly,
    },
  },
  '/Node': {
    fields: {
      spec: { fields: { podCIDRs: { mergeScalars: true } } },
      status: { fields: { conditions, addresses: byKey('type') } },
    },
  },
  '/ServiceAccount': { fields: { secrets: byKey('name') } },
  '/Namespace': { fields: { status: conditionsOnly } },
  // ObjectReference is `+structType=atomic`.
  '/Event': { fields: { involvedObject: { atomicMap: true }, related: { atomicMap: true } } },
  // A ControllerRevision's data is a RawExtension: one opaque value.
  'apps/ControllerRevision': { fields: { data: { atomicMap: true } } },
  // RoleRef is `+structType=atomic`.
  'rbac.authorization.k8s.io/RoleBinding': { fields: { roleRef: { atomicMap: true } } },
  'rbac.authorization.k8s.io/ClusterRoleBinding': { fields: { roleRef: { atomicMap: true } } },
  // ServiceBackendPort is `+structType=atomic`.
  'networking.k8s.io/Ingress': {
    fields: {
      spec: { fields: { defaultBackend: { fields: { service: { fields: { port: { atomicMap: true } } } } } } },
    },
  },
  '/PersistentVolumeClaim': { fields: { status: conditionsOnly } },
  'apps/Deployment': workload,
  'apps/ReplicaSet': workload,
  'apps/StatefulSet': workload,
  'apps/DaemonSet': workload,
  'batch/Job': { fields: { spec: jobSpec, status: conditionsOnly } },
  'batch/CronJob': {
    fields: { spec: { fields: { jobTemplate: { fields: { metadata: objectMeta, spec: jobSpec } } } } },
  },
  'autoscaling/HorizontalPodAutoscaler': { fields: { status: conditionsOnly } },
  'policy/PodDisruptionBudget': {
    fields: { spec: { fields: { selector: { replaceMap: true, atomicMap: true } } }, status: conditionsOnly },
  },
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': { fields: { webhooks: webhook } },
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': { fields: { webhooks: webhook } },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': {
    fields: { spec: { fields: { variables: byKey('name'), matchConditions: byKey('name') } } },
  },
};

/**
 * Groups compiled into kube-apiserver. Only these accept
 * `application/strategic-merge-patch+json`; any other group is a custom
 * resource and gets 415. Note `gateway.networking.k8s.io` and friends are CRD
 * groups, so this must be an exact list, not a `*.k8s.io` suffix match.
 */
const BUILTIN_GROUPS: ReadonlySet<string> = new Set([
  '',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'apps',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'extensions',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

export function supportsStrategicMerge(gvk: GroupVersionKind): boolean {
  return BUILTIN_GROUPS.has(gvk.group);
}

/** Every object's metadata, built-in or custom, follows ObjectMeta's tags. */
export const OBJECT_META_SCHEMA: FieldSchema = objectMeta;

/**
 * Root patch metadata for a built-in kind, or undefined for custom resources.
 * Built-in kinds not in the table still get ObjectMeta's finalizers/ownerReferences.
 */
export function builtinSchema(gvk: GroupVersionKind): FieldSchema | undefined {
  if (!supportsStrategicMerge(gvk)) return undefined;
  const known = KINDS[`${gvk.group}/${gvk.kind}`];
  return { fields: { ...known?.fields, metadata: objectMeta } };
}

/** Walks the schema by field names; list elements share their list's node. */
export function schemaAt(root: FieldSchema | undefined, path: readonly string[]): FieldSchema | undefined {
  let node = root;
  for (const name of path) {
    node = node?.fields?.[name];
    if (!node) return undefined;
  }
  return node;
}
