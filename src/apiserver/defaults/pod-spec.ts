import type { JsonObject } from '../registry/types.js';
import { applyRows, existingObject, isObject, objectsIn, type DefaultRow } from './fields.js';
import { defaultImagePullPolicy } from './image-pull-policy.js';

/**
 * Defaults of a PodSpec wherever one sits (a Pod, or the template of a Deployment, StatefulSet,
 * DaemonSet, ReplicaSet, Job, CronJob, ReplicationController, PodTemplate), as the generated
 * defaulters walk it: SetDefaults_PodSpec, SetDefaults_Container, SetDefaults_Probe,
 * SetDefaults_HTTPGetAction, SetDefaults_ObjectFieldSelector, SetDefaults_Volume and the volume
 * sources' SetDefaults_* (pkg/apis/core/v1/defaults.go), and the declarative `+default` of
 * ContainerPort.protocol (k8s.io/api/core/v1/types.go).
 */

/** SetDefaults_PodSpec. */
const POD_SPEC: readonly DefaultRow[] = [
  ['restartPolicy', 'Always', 'zero'],
  ['terminationGracePeriodSeconds', 30, 'nil'],
  ['dnsPolicy', 'ClusterFirst', 'zero'],
  ['securityContext', {}, 'nil'],
  ['schedulerName', 'default-scheduler', 'zero'],
];

/**
 * SetDefaults_Container (imagePullPolicy apart). `resources` is a non-pointer struct without
 * omitempty in Go, so the real server always answers it, `{}` when empty.
 */
const CONTAINER: readonly DefaultRow[] = [
  ['resources', {}, 'nil'],
  ['terminationMessagePath', '/dev/termination-log', 'zero'],
  ['terminationMessagePolicy', 'File', 'zero'],
];

/** SetDefaults_Probe. */
const PROBE: readonly DefaultRow[] = [
  ['timeoutSeconds', 1, 'zero'],
  ['periodSeconds', 10, 'zero'],
  ['successThreshold', 1, 'zero'],
  ['failureThreshold', 3, 'zero'],
];

/** SetDefaults_HTTPGetAction. */
const HTTP_GET: readonly DefaultRow[] = [
  ['path', '/', 'zero'],
  ['scheme', 'HTTP', 'zero'],
];

/** ContainerPort.protocol `+default="TCP"`. */
const CONTAINER_PORT: readonly DefaultRow[] = [['protocol', 'TCP', 'zero']];

/** SetDefaults_ObjectFieldSelector. */
const FIELD_REF: readonly DefaultRow[] = [['apiVersion', 'v1', 'zero']];

/** 0644: SecretVolumeSourceDefaultMode, ConfigMap…, DownwardAPI…, Projected…. */
const DEFAULT_MODE: readonly DefaultRow[] = [['defaultMode', 420, 'nil']];

/** SetDefaults_HostPathVolumeSource: HostPathUnset. */
const HOST_PATH: readonly DefaultRow[] = [['type', '', 'nil']];

/** SetDefaults_ServiceAccountTokenProjection: one hour. */
const SA_TOKEN_PROJECTION: readonly DefaultRow[] = [['expirationSeconds', 3600, 'nil']];

/** SetDefaults_PersistentVolumeClaimSpec. */
export const PVC_SPEC: readonly DefaultRow[] = [['volumeMode', 'Filesystem', 'nil']];

/** The volume sources of core/v1 Volume (VolumeSource's members): one of them must be set. */
const VOLUME_SOURCES = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
];

export function defaultPodSpec(spec: JsonObject): void {
  applyRows(spec, POD_SPEC);
  for (const key of ['containers', 'initContainers', 'ephemeralContainers'])
    for (const c of objectsIn(spec, key)) defaultContainer(c);
  for (const v of objectsIn(spec, 'volumes')) defaultVolume(v);
}

function defaultContainer(c: JsonObject): void {
  if (typeof c.imagePullPolicy !== 'string' || c.imagePullPolicy === '') {
    c.imagePullPolicy = defaultImagePullPolicy(typeof c.image === 'string' ? c.image : '');
  }
  applyRows(c, CONTAINER);
  for (const p of objectsIn(c, 'ports')) applyRows(p, CONTAINER_PORT);
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const probe = existingObject(c, key);
    if (!probe) continue;
    applyRows(probe, PROBE);
    defaultHandler(probe);
  }
  const lifecycle = existingObject(c, 'lifecycle');
  for (const key of ['postStart', 'preStop']) {
    const handler = lifecycle && existingObject(lifecycle, key);
    if (handler) defaultHandler(handler);
  }
  for (const env of objectsIn(c, 'env')) {
    const fieldRef = existingObject(existingObject(env, 'valueFrom') ?? {}, 'fieldRef');
    if (fieldRef) applyRows(fieldRef, FIELD_REF);
  }
}

/** A probe or lifecycle handler: only its httpGet has defaults. */
function defaultHandler(handler: JsonObject): void {
  const httpGet = existingObject(handler, 'httpGet');
  if (httpGet) applyRows(httpGet, HTTP_GET);
}

function defaultVolume(v: JsonObject): void {
  // SetDefaults_Volume: a volume that names no source is an emptyDir.
  if (!VOLUME_SOURCES.some((s) => isObject(v[s]))) v.emptyDir = {};
  for (const key of ['secret', 'configMap', 'projected']) {
    const source = existingObject(v, key);
    if (source) applyRows(source, DEFAULT_MODE);
  }
  const downward = existingObject(v, 'downwardAPI');
  if (downward) {
    applyRows(downward, DEFAULT_MODE);
    defaultDownwardItems(downward);
  }
  const hostPath = existingObject(v, 'hostPath');
  if (hostPath) applyRows(hostPath, HOST_PATH);
  for (const source of objectsIn(existingObject(v, 'projected') ?? {}, 'sources')) {
    const token = existingObject(source, 'serviceAccountToken');
    if (token) applyRows(token, SA_TOKEN_PROJECTION);
    const projectedDownward = existingObject(source, 'downwardAPI');
    if (projectedDownward) defaultDownwardItems(projectedDownward);
  }
  const template = existingObject(existingObject(v, 'ephemeral') ?? {}, 'volumeClaimTemplate');
  const claimSpec = template && existingObject(template, 'spec');
  if (claimSpec) applyRows(claimSpec, PVC_SPEC);
}

function defaultDownwardItems(source: JsonObject): void {
  for (const item of objectsIn(source, 'items')) {
    const fieldRef = existingObject(item, 'fieldRef');
    if (fieldRef) applyRows(fieldRef, FIELD_REF);
  }
}

/** The PodSpec of a `template` (PodTemplateSpec) inside `spec`, when there is one. */
export function defaultTemplateOf(spec: JsonObject | undefined): void {
  const template = spec && existingObject(spec, 'template');
  const podSpec = template && existingObject(template, 'spec');
  if (podSpec) defaultPodSpec(podSpec);
}
