import { readFileSync } from 'node:fs';
import { metadataOf, nowTimestamp } from '../objects/meta.js';
import type { ObjectStore } from '../objects/object-store.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import { BOOTSTRAP_OBJECTS_FILE } from './bootstrap-files.js';

interface BootstrapObjects {
  priorityLevelConfigurations: JsonObject[];
  flowSchemas: JsonObject[];
  apiServices: JsonObject[];
}

export interface BootstrapSettings {
  /** PEM of the CA client certificates are checked against, when the server authenticates them. */
  clientCa?: string;
  serviceCidr: string;
}

const FIELD_MANAGER = { fieldManager: 'kube-apiserver' };

/**
 * What kube-apiserver creates for itself on start, beside the system namespaces and the `kubernetes`
 * Service: the flow-control bootstrap configuration (apf_controller's ensurers: created when missing,
 * never overwritten here), kube-aggregator's local APIServices (Available), the default ServiceCIDR,
 * `kube-system/extension-apiserver-authentication` (the ClusterAuthenticationTrust controller),
 * and the system-node-critical and system-cluster-critical PriorityClasses (the scheduling hook's),
 * which every client-go component with delegated authentication reads.
 */
export function ensureBootstrapObjects(
  registry: ResourceRegistry,
  objects: ObjectStore,
  settings: BootstrapSettings,
): void {
  const boot = JSON.parse(readFileSync(BOOTSTRAP_OBJECTS_FILE, 'utf8')) as BootstrapObjects;
  const type = (group: string, plural: string): ResourceType => registry.builtin(group, 'v1', plural);
  const plc = type('flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations');
  for (const o of boot.priorityLevelConfigurations) createMissing(objects, plc, o, undefined);
  const fs = type('flowcontrol.apiserver.k8s.io', 'flowschemas');
  for (const o of boot.flowSchemas) createMissing(objects, fs, o, undefined);
  const apiServices = type('apiregistration.k8s.io', 'apiservices');
  const available = {
    conditions: [
      {
        type: 'Available',
        status: 'True',
        lastTransitionTime: nowTimestamp(),
        reason: 'Local',
        message: 'Local APIServices are always available',
      },
    ],
  };
  // Only the group-versions this server serves (admissionregistration may not be yet).
  const served = new Set(registry.groups().flatMap((g) => g.versions.map((v) => `${v}.${g.group}`)));
  for (const o of boot.apiServices)
    if (served.has(String(metadataOf(o).name))) createMissing(objects, apiServices, o, available);
  const cidrs = type('networking.k8s.io', 'servicecidrs');
  const ready = {
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        lastTransitionTime: nowTimestamp(),
        reason: '',
        message: 'Kubernetes default Service CIDR is ready',
      },
    ],
  };
  const defaultCidr = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'ServiceCIDR',
    metadata: { name: 'kubernetes' },
    spec: { cidrs: [settings.serviceCidr] },
  };
  createMissing(objects, cidrs, defaultCidr, ready);
  const classes = type('scheduling.k8s.io', 'priorityclasses');
  for (const o of SYSTEM_PRIORITY_CLASSES) createMissing(objects, classes, o, undefined);
  ensureAuthenticationConfigMap(type('', 'configmaps'), objects, settings.clientCa);
}

/** pkg/apis/scheduling/v1/helpers.go, SystemPriorityClasses: the scheduling post-start hook's. */
const SYSTEM_PRIORITY_CLASSES: JsonObject[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: 2000000000,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

function createMissing(objects: ObjectStore, t: ResourceType, obj: JsonObject, status: JsonObject | undefined): void {
  const name = String(metadataOf(obj).name);
  if (objects.getStored(t, undefined, name)) return;
  const created = objects.create(t, undefined, structuredClone(obj), FIELD_MANAGER);
  if (status) objects.update(t, undefined, name, { ...created, status }, { ...FIELD_MANAGER, subresource: 'status' });
}

function ensureAuthenticationConfigMap(t: ResourceType, objects: ObjectStore, clientCa: string | undefined): void {
  const name = 'extension-apiserver-authentication';
  const data: JsonObject = clientCa ? { 'client-ca-file': clientCa } : {};
  const stored = objects.getStored(t, 'kube-system', name);
  if (!stored) {
    objects.create(
      t,
      'kube-system',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'kube-system' }, data },
      FIELD_MANAGER,
    );
    return;
  }
  const cm = JSON.parse(stored.value) as JsonObject;
  if (JSON.stringify(cm.data ?? {}) !== JSON.stringify(data))
    objects.update(t, 'kube-system', name, { ...cm, data }, FIELD_MANAGER);
}
