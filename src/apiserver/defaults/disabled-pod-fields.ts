// podutil.DropDisabledPodFields and DropDisabledTemplateFields (k8s.io/kubernetes pkg/api/pod/util.go),
// for the fields of the feature gates v1.34 leaves off by default (pkg/features/kube_features.go):
// ContainerRestartRules, HostnameOverride, EnvFiles, ContainerStopSignals, ImageVolume,
// ClusterTrustBundleProjection and PodCertificateRequest. What a client sends for them is dropped
// before validation and storage, unless the object being updated already uses them.
import { isObject } from '../objects/meta.js';
import type { JsonObject, JsonValue, ResourceType } from '../registry/types.js';

/** Where each kind with pods keeps its PodSpec. */
const POD_SPEC_PATHS: Record<string, readonly string[]> = {
  '/Pod': ['spec'],
  '/PodTemplate': ['template', 'spec'],
  '/ReplicationController': ['spec', 'template', 'spec'],
  'apps/Deployment': ['spec', 'template', 'spec'],
  'apps/ReplicaSet': ['spec', 'template', 'spec'],
  'apps/StatefulSet': ['spec', 'template', 'spec'],
  'apps/DaemonSet': ['spec', 'template', 'spec'],
  'batch/Job': ['spec', 'template', 'spec'],
  'batch/CronJob': ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

function podSpecAt(obj: JsonObject | undefined, path: readonly string[]): JsonObject | undefined {
  let cur: JsonValue | undefined = obj;
  for (const k of path) cur = isObject(cur) ? cur[k] : undefined;
  return isObject(cur) ? cur : undefined;
}

const containersOf = (spec: JsonObject, field: string): JsonObject[] => {
  const list = spec[field];
  return Array.isArray(list) ? list.filter(isObject) : [];
};

/** VisitContainers(…, AllContainers, …): init containers, containers, ephemeral containers. */
const allContainers = (spec: JsonObject): JsonObject[] => [
  ...containersOf(spec, 'initContainers'),
  ...containersOf(spec, 'containers'),
  ...containersOf(spec, 'ephemeralContainers'),
];

const isSet = (v: JsonValue | undefined): boolean => v !== undefined && v !== null;

/** Each projected volume source of the spec. */
const projectedSources = (spec: JsonObject): JsonObject[] =>
  containersOf(spec, 'volumes').flatMap((v) => (isObject(v.projected) ? containersOf(v.projected, 'sources') : []));

/** setHostnameOverrideInUse / dropping HostnameOverride. */
const hostnameOverride = {
  inUse: (old: JsonObject): boolean => isSet(old.hostnameOverride),
  drop: (spec: JsonObject): void => {
    delete spec.hostnameOverride;
  },
};

const fileKeyRefs = (spec: JsonObject): JsonObject[] =>
  allContainers(spec).flatMap((c) =>
    containersOf(c, 'env').flatMap((e) => (isObject(e.valueFrom) ? [e.valueFrom] : [])),
  );

/** podFileKeyRefInUse / dropFileKeyRefInUse (EnvFiles). */
const fileKeyRef = {
  inUse: (old: JsonObject): boolean => fileKeyRefs(old).some((v) => isSet(v.fileKeyRef)),
  drop: (spec: JsonObject): void => {
    for (const v of fileKeyRefs(spec)) delete v.fileKeyRef;
  },
};

/** containerStopSignalsInUse / dropContainerStopSignals: a lifecycle left empty goes too. */
const stopSignals = {
  inUse: (old: JsonObject): boolean =>
    allContainers(old).some((c) => isObject(c.lifecycle) && isSet(c.lifecycle.stopSignal)),
  drop: (spec: JsonObject): void => {
    for (const c of allContainers(spec)) {
      const lifecycle = c.lifecycle;
      if (!isObject(lifecycle) || !isSet(lifecycle.stopSignal)) continue;
      delete lifecycle.stopSignal;
      if (!isSet(lifecycle.postStart) && !isSet(lifecycle.preStop)) delete c.lifecycle;
    }
  },
};

/** imageVolumesInUse / dropImageVolumes: the image volumes and every mount of them. */
const imageVolumes = {
  inUse: (old: JsonObject): boolean => containersOf(old, 'volumes').some((v) => isSet(v.image)),
  drop: (spec: JsonObject): void => {
    const volumes = containersOf(spec, 'volumes');
    const names = new Set(volumes.filter((v) => isSet(v.image)).map((v) => v.name));
    if (names.size === 0) return;
    spec.volumes = volumes.filter((v) => !isSet(v.image));
    for (const c of allContainers(spec))
      if (Array.isArray(c.volumeMounts))
        c.volumeMounts = c.volumeMounts.filter((m) => !(isObject(m) && names.has(m.name)));
  },
};

/** A projected source kind: clusterTrustBundle (ClusterTrustBundleProjection), podCertificate (PodCertificateRequest). */
const projection = (field: string) => ({
  inUse: (old: JsonObject): boolean => projectedSources(old).some((s) => isSet(s[field])),
  drop: (spec: JsonObject): void => {
    for (const s of projectedSources(spec)) delete s[field];
  },
});

/** containerRestartRulesInUse: an init container's non-Always policy or rules, a container's policy. */
function restartRulesInUse(old: JsonObject | undefined): boolean {
  if (!old) return false;
  const init = containersOf(old, 'initContainers').some(
    (c) =>
      (c.restartPolicy !== undefined && c.restartPolicy !== null && c.restartPolicy !== 'Always') ||
      (Array.isArray(c.restartPolicyRules) && c.restartPolicyRules.length > 0),
  );
  return init || containersOf(old, 'containers').some((c) => c.restartPolicy !== undefined && c.restartPolicy !== null);
}

/** dropContainerRestartRules (ContainerRestartRules, alpha in v1.34): only a sidecar's `Always` stays. */
function dropContainerRestartRules(spec: JsonObject): void {
  for (const c of containersOf(spec, 'initContainers')) {
    if (c.restartPolicy !== undefined && c.restartPolicy !== null && c.restartPolicy !== 'Always')
      delete c.restartPolicy;
    delete c.restartPolicyRules;
  }
  for (const field of ['containers', 'ephemeralContainers'])
    for (const c of containersOf(spec, field)) {
      delete c.restartPolicy;
      delete c.restartPolicyRules;
    }
}

/** In dropDisabledFields' order. */
const GATED = [
  projection('clusterTrustBundle'),
  projection('podCertificate'),
  hostnameOverride,
  fileKeyRef,
  imageVolumes,
  stopSignals,
];

export function dropDisabledPodFields(t: ResourceType, obj: JsonObject, old: JsonObject | undefined): void {
  const path = POD_SPEC_PATHS[`${t.group}/${t.kind}`];
  if (!path) return;
  const spec = podSpecAt(obj, path);
  if (!spec) return;
  const oldSpec = podSpecAt(old, path);
  if (!restartRulesInUse(oldSpec)) dropContainerRestartRules(spec);
  for (const gate of GATED) if (!oldSpec || !gate.inUse(oldSpec)) gate.drop(spec);
}
