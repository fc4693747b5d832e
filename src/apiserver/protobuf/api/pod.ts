import { bool, int, objectMeta, quantity, string } from '../scalars.js';
import { list, map, message, nullList, ptr, req } from '../schema.js';
import { affinity, toleration, topologySpreadConstraint } from './affinity.js';
import { appArmorProfile, container, ephemeralContainer, resourceRequirements, seccompProfile, seLinuxOptions, windowsSecurityContextOptions } from './container.js';
import { localObjectReference } from './core-refs.js';
import { volume } from './volume.js';

/** core/v1 PodTemplateSpec and PodSpec, which Deployments, Jobs and CronJobs embed. */

const podSecurityContext = message('PodSecurityContext', () => [
  [1, 'seLinuxOptions', ptr(seLinuxOptions)],
  [8, 'windowsOptions', ptr(windowsSecurityContextOptions)],
  [2, 'runAsUser', ptr(int)],
  [6, 'runAsGroup', ptr(int)],
  [3, 'runAsNonRoot', ptr(bool)],
  [4, 'supplementalGroups', list(int)],
  [12, 'supplementalGroupsPolicy', ptr(string)],
  [5, 'fsGroup', ptr(int)],
  [7, 'sysctls', list(message('Sysctl', () => [[1, 'name', req(string)], [2, 'value', req(string)]]))],
  [9, 'fsGroupChangePolicy', ptr(string)],
  [10, 'seccompProfile', ptr(seccompProfile)],
  [11, 'appArmorProfile', ptr(appArmorProfile)],
  [13, 'seLinuxChangePolicy', ptr(string)],
]);

const hostAlias = message('HostAlias', () => [
  [1, 'ip', req(string)],
  [2, 'hostnames', list(string)],
]);

const podDNSConfig = message('PodDNSConfig', () => [
  [1, 'nameservers', list(string)],
  [2, 'searches', list(string)],
  [3, 'options', list(message('PodDNSConfigOption', () => [[1, 'name', string], [2, 'value', ptr(string)]]))],
]);

const podResourceClaim = message('PodResourceClaim', () => [
  [1, 'name', req(string)],
  [3, 'resourceClaimName', ptr(string)],
  [4, 'resourceClaimTemplateName', ptr(string)],
]);

const nameOnly = (label: string) => message(label, () => [[1, 'name', req(string)]]);

export const podSpec = message('PodSpec', () => [
  [1, 'volumes', list(volume)],
  [20, 'initContainers', list(container)],
  [2, 'containers', nullList(container)],
  [34, 'ephemeralContainers', list(ephemeralContainer)],
  [3, 'restartPolicy', string],
  [4, 'terminationGracePeriodSeconds', ptr(int)],
  [5, 'activeDeadlineSeconds', ptr(int)],
  [6, 'dnsPolicy', string],
  [7, 'nodeSelector', map(string)],
  [8, 'serviceAccountName', string],
  [9, 'serviceAccount', string],
  [21, 'automountServiceAccountToken', ptr(bool)],
  [10, 'nodeName', string],
  [11, 'hostNetwork', bool],
  [12, 'hostPID', bool],
  [13, 'hostIPC', bool],
  [27, 'shareProcessNamespace', ptr(bool)],
  [14, 'securityContext', ptr(podSecurityContext)],
  [15, 'imagePullSecrets', list(localObjectReference)],
  [16, 'hostname', string],
  [17, 'subdomain', string],
  [18, 'affinity', ptr(affinity)],
  [19, 'schedulerName', string],
  [22, 'tolerations', list(toleration)],
  [23, 'hostAliases', list(hostAlias)],
  [24, 'priorityClassName', string],
  [25, 'priority', ptr(int)],
  [26, 'dnsConfig', ptr(podDNSConfig)],
  [28, 'readinessGates', list(message('PodReadinessGate', () => [[1, 'conditionType', req(string)]]))],
  [29, 'runtimeClassName', ptr(string)],
  [30, 'enableServiceLinks', ptr(bool)],
  [31, 'preemptionPolicy', ptr(string)],
  [32, 'overhead', map(quantity)],
  [33, 'topologySpreadConstraints', list(topologySpreadConstraint)],
  [35, 'setHostnameAsFQDN', ptr(bool)],
  [36, 'os', ptr(nameOnly('PodOS'))],
  [37, 'hostUsers', ptr(bool)],
  [38, 'schedulingGates', list(nameOnly('PodSchedulingGate'))],
  [39, 'resourceClaims', list(podResourceClaim)],
  [40, 'resources', ptr(resourceRequirements)],
  [41, 'hostnameOverride', ptr(string)],
]);

export const podTemplateSpec = message('PodTemplateSpec', () => [
  [1, 'metadata', objectMeta],
  [2, 'spec', podSpec],
]);
