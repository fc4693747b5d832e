import { bool, int, objectMeta, quantity, string } from '../scalars.js';
import { inline, list, map, message, nullList, ptr, req, type Row } from '../schema.js';
import {
  keyToPath,
  localObjectReference,
  objectFieldSelector,
  resourceFieldSelector,
  typedLocalObjectReference,
  typedObjectReference,
} from './core-refs.js';
import { labelSelector } from './meta-v1.js';

/**
 * core/v1 Volume with the volume sources in use today. The deprecated in-tree plugins (gcePersistentDisk,
 * awsElasticBlockStore, gitRepo, iscsi, glusterfs, rbd, flexVolume, cinder, cephfs, flocker, fc,
 * azureFile, vsphereVolume, quobyte, azureDisk, photonPersistentDisk, portworxVolume, scaleIO,
 * storageos) are not listed: a body using one is refused as an unknown field.
 */

const hostPath = message('HostPathVolumeSource', () => [
  [1, 'path', req(string)],
  [2, 'type', ptr(string)],
]);

const emptyDir = message('EmptyDirVolumeSource', () => [
  [1, 'medium', string],
  [2, 'sizeLimit', ptr(quantity)],
]);

const secret = message('SecretVolumeSource', () => [
  [1, 'secretName', string],
  [2, 'items', list(keyToPath)],
  [3, 'defaultMode', ptr(int)],
  [4, 'optional', ptr(bool)],
]);

const nfs = message('NFSVolumeSource', () => [
  [1, 'server', req(string)],
  [2, 'path', req(string)],
  [3, 'readOnly', bool],
]);

const persistentVolumeClaim = message('PersistentVolumeClaimVolumeSource', () => [
  [1, 'claimName', req(string)],
  [2, 'readOnly', bool],
]);

const downwardAPIVolumeFile = message('DownwardAPIVolumeFile', () => [
  [1, 'path', req(string)],
  [2, 'fieldRef', ptr(objectFieldSelector)],
  [3, 'resourceFieldRef', ptr(resourceFieldSelector)],
  [4, 'mode', ptr(int)],
]);

const downwardAPI = message('DownwardAPIVolumeSource', () => [
  [1, 'items', list(downwardAPIVolumeFile)],
  [2, 'defaultMode', ptr(int)],
]);

const configMap = message('ConfigMapVolumeSource', () => [
  [1, '', inline(localObjectReference)],
  [2, 'items', list(keyToPath)],
  [3, 'defaultMode', ptr(int)],
  [4, 'optional', ptr(bool)],
]);

const projectionRows = (): Row[] => [
  [1, '', inline(localObjectReference)],
  [2, 'items', list(keyToPath)],
  [4, 'optional', ptr(bool)],
];

const serviceAccountToken = message('ServiceAccountTokenProjection', () => [
  [1, 'audience', string],
  [2, 'expirationSeconds', ptr(int)],
  [3, 'path', req(string)],
]);

const clusterTrustBundle = message('ClusterTrustBundleProjection', () => [
  [1, 'name', ptr(string)],
  [2, 'signerName', ptr(string)],
  [3, 'labelSelector', ptr(labelSelector)],
  [5, 'optional', ptr(bool)],
  [4, 'path', req(string)],
]);

const volumeProjection = message('VolumeProjection', () => [
  [1, 'secret', ptr(message('SecretProjection', projectionRows))],
  [2, 'downwardAPI', ptr(message('DownwardAPIProjection', () => [[1, 'items', list(downwardAPIVolumeFile)]]))],
  [3, 'configMap', ptr(message('ConfigMapProjection', projectionRows))],
  [4, 'serviceAccountToken', ptr(serviceAccountToken)],
  [5, 'clusterTrustBundle', ptr(clusterTrustBundle)],
]);

const projected = message('ProjectedVolumeSource', () => [
  [1, 'sources', nullList(volumeProjection)],
  [2, 'defaultMode', ptr(int)],
]);

const csi = message('CSIVolumeSource', () => [
  [1, 'driver', req(string)],
  [2, 'readOnly', ptr(bool)],
  [3, 'fsType', ptr(string)],
  [4, 'volumeAttributes', map(string)],
  [5, 'nodePublishSecretRef', ptr(localObjectReference)],
]);

const volumeResourceRequirements = message('VolumeResourceRequirements', () => [
  [1, 'limits', map(quantity)],
  [2, 'requests', map(quantity)],
]);

export const persistentVolumeClaimSpec = message('PersistentVolumeClaimSpec', () => [
  [1, 'accessModes', list(string)],
  [4, 'selector', ptr(labelSelector)],
  [2, 'resources', volumeResourceRequirements],
  [3, 'volumeName', string],
  [5, 'storageClassName', ptr(string)],
  [6, 'volumeMode', ptr(string)],
  [7, 'dataSource', ptr(typedLocalObjectReference)],
  [8, 'dataSourceRef', ptr(typedObjectReference)],
  [9, 'volumeAttributesClassName', ptr(string)],
]);

const ephemeral = message('EphemeralVolumeSource', () => [
  [
    1,
    'volumeClaimTemplate',
    ptr(
      message('PersistentVolumeClaimTemplate', () => [
        [1, 'metadata', objectMeta],
        [2, 'spec', persistentVolumeClaimSpec],
      ]),
    ),
  ],
]);

const image = message('ImageVolumeSource', () => [
  [1, 'reference', string],
  [2, 'pullPolicy', string],
]);

const volumeSource = message('VolumeSource', () => [
  [1, 'hostPath', ptr(hostPath)],
  [2, 'emptyDir', ptr(emptyDir)],
  [6, 'secret', ptr(secret)],
  [7, 'nfs', ptr(nfs)],
  [10, 'persistentVolumeClaim', ptr(persistentVolumeClaim)],
  [16, 'downwardAPI', ptr(downwardAPI)],
  [19, 'configMap', ptr(configMap)],
  [26, 'projected', ptr(projected)],
  [28, 'csi', ptr(csi)],
  [29, 'ephemeral', ptr(ephemeral)],
  [30, 'image', ptr(image)],
]);

export const volume = message('Volume', () => [
  [1, 'name', req(string)],
  [2, '', inline(volumeSource)],
]);
