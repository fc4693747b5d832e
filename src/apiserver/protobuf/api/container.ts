import { bool, int, intOrString, quantity, string } from '../scalars.js';
import { inline, list, map, message, nullPtr, ptr, req, type Row } from '../schema.js';
import { localObjectReference, objectFieldSelector, resourceFieldSelector } from './core-refs.js';

/** core/v1 Container and what it embeds (k8s.io/api/core/v1 generated.proto). */

const containerPort = message('ContainerPort', () => [
  [1, 'name', string],
  [2, 'hostPort', int],
  [3, 'containerPort', req(int)],
  [4, 'protocol', string],
  [5, 'hostIP', string],
]);

const keySelectorRows = (): Row[] => [
  [1, '', inline(localObjectReference)],
  [2, 'key', req(string)],
  [3, 'optional', ptr(bool)],
];

const fileKeySelector = message('FileKeySelector', () => [
  [1, 'volumeName', req(string)],
  [2, 'path', req(string)],
  [3, 'key', req(string)],
  [4, 'optional', ptr(bool)],
]);

const envVarSource = message('EnvVarSource', () => [
  [1, 'fieldRef', ptr(objectFieldSelector)],
  [2, 'resourceFieldRef', ptr(resourceFieldSelector)],
  [3, 'configMapKeyRef', ptr(message('ConfigMapKeySelector', keySelectorRows))],
  [4, 'secretKeyRef', ptr(message('SecretKeySelector', keySelectorRows))],
  [5, 'fileKeyRef', ptr(fileKeySelector)],
]);

const envVar = message('EnvVar', () => [
  [1, 'name', req(string)],
  [2, 'value', string],
  [3, 'valueFrom', ptr(envVarSource)],
]);

const envSourceRows = (): Row[] => [
  [1, '', inline(localObjectReference)],
  [2, 'optional', ptr(bool)],
];

const envFromSource = message('EnvFromSource', () => [
  [1, 'prefix', string],
  [2, 'configMapRef', ptr(message('ConfigMapEnvSource', envSourceRows))],
  [3, 'secretRef', ptr(message('SecretEnvSource', envSourceRows))],
]);

const resourceClaim = message('ResourceClaim', () => [
  [1, 'name', req(string)],
  [2, 'request', string],
]);

export const resourceRequirements = message('ResourceRequirements', () => [
  [1, 'limits', map(quantity)],
  [2, 'requests', map(quantity)],
  [3, 'claims', list(resourceClaim)],
]);

const containerResizePolicy = message('ContainerResizePolicy', () => [
  [1, 'resourceName', req(string)],
  [2, 'restartPolicy', req(string)],
]);

const containerRestartRuleOnExitCodes = message('ContainerRestartRuleOnExitCodes', () => [
  [1, 'operator', req(string)],
  [2, 'values', list(int)],
]);

const containerRestartRule = message('ContainerRestartRule', () => [
  [1, 'action', req(string)],
  [2, 'exitCodes', ptr(containerRestartRuleOnExitCodes)],
]);

const volumeMount = message('VolumeMount', () => [
  [1, 'name', req(string)],
  [2, 'readOnly', bool],
  [7, 'recursiveReadOnly', ptr(string)],
  [3, 'mountPath', req(string)],
  [4, 'subPath', string],
  [5, 'mountPropagation', ptr(string)],
  [6, 'subPathExpr', string],
]);

const volumeDevice = message('VolumeDevice', () => [
  [1, 'name', req(string)],
  [2, 'devicePath', req(string)],
]);

const httpHeader = message('HTTPHeader', () => [
  [1, 'name', req(string)],
  [2, 'value', req(string)],
]);

const execAction = message('ExecAction', () => [[1, 'command', list(string)]]);

const httpGetAction = message('HTTPGetAction', () => [
  [1, 'path', string],
  [2, 'port', intOrString],
  [3, 'host', string],
  [4, 'scheme', string],
  [5, 'httpHeaders', list(httpHeader)],
]);

const tcpSocketAction = message('TCPSocketAction', () => [
  [1, 'port', intOrString],
  [2, 'host', string],
]);

/** `service` is a *string without omitempty: JSON writes null when it is unset. */
const grpcAction = message('GRPCAction', () => [
  [1, 'port', req(int)],
  [2, 'service', nullPtr(string)],
]);

const probeHandler = message('ProbeHandler', () => [
  [1, 'exec', ptr(execAction)],
  [2, 'httpGet', ptr(httpGetAction)],
  [3, 'tcpSocket', ptr(tcpSocketAction)],
  [4, 'grpc', ptr(grpcAction)],
]);

const probe = message('Probe', () => [
  [1, '', inline(probeHandler)],
  [2, 'initialDelaySeconds', int],
  [3, 'timeoutSeconds', int],
  [4, 'periodSeconds', int],
  [5, 'successThreshold', int],
  [6, 'failureThreshold', int],
  [7, 'terminationGracePeriodSeconds', ptr(int)],
]);

const lifecycleHandler = message('LifecycleHandler', () => [
  [1, 'exec', ptr(execAction)],
  [2, 'httpGet', ptr(httpGetAction)],
  [3, 'tcpSocket', ptr(tcpSocketAction)],
  [4, 'sleep', ptr(message('SleepAction', () => [[1, 'seconds', req(int)]]))],
]);

const lifecycle = message('Lifecycle', () => [
  [1, 'postStart', ptr(lifecycleHandler)],
  [2, 'preStop', ptr(lifecycleHandler)],
  [3, 'stopSignal', ptr(string)],
]);

export const seLinuxOptions = message('SELinuxOptions', () => [
  [1, 'user', string],
  [2, 'role', string],
  [3, 'type', string],
  [4, 'level', string],
]);

export const windowsSecurityContextOptions = message('WindowsSecurityContextOptions', () => [
  [1, 'gmsaCredentialSpecName', ptr(string)],
  [2, 'gmsaCredentialSpec', ptr(string)],
  [3, 'runAsUserName', ptr(string)],
  [4, 'hostProcess', ptr(bool)],
]);

const profileRows = (): Row[] => [
  [1, 'type', req(string)],
  [2, 'localhostProfile', ptr(string)],
];
export const seccompProfile = message('SeccompProfile', profileRows);
export const appArmorProfile = message('AppArmorProfile', profileRows);

const securityContext = message('SecurityContext', () => [
  [1, 'capabilities', ptr(message('Capabilities', () => [[1, 'add', list(string)], [2, 'drop', list(string)]]))],
  [2, 'privileged', ptr(bool)],
  [3, 'seLinuxOptions', ptr(seLinuxOptions)],
  [10, 'windowsOptions', ptr(windowsSecurityContextOptions)],
  [4, 'runAsUser', ptr(int)],
  [8, 'runAsGroup', ptr(int)],
  [5, 'runAsNonRoot', ptr(bool)],
  [6, 'readOnlyRootFilesystem', ptr(bool)],
  [7, 'allowPrivilegeEscalation', ptr(bool)],
  [9, 'procMount', ptr(string)],
  [11, 'seccompProfile', ptr(seccompProfile)],
  [12, 'appArmorProfile', ptr(appArmorProfile)],
]);

/** Container's fields; EphemeralContainerCommon repeats them under the same numbers. */
const containerRows = (): Row[] => [
  [1, 'name', req(string)],
  [2, 'image', string],
  [3, 'command', list(string)],
  [4, 'args', list(string)],
  [5, 'workingDir', string],
  [6, 'ports', list(containerPort)],
  [19, 'envFrom', list(envFromSource)],
  [7, 'env', list(envVar)],
  [8, 'resources', resourceRequirements],
  [23, 'resizePolicy', list(containerResizePolicy)],
  [24, 'restartPolicy', ptr(string)],
  [25, 'restartPolicyRules', list(containerRestartRule)],
  [9, 'volumeMounts', list(volumeMount)],
  [21, 'volumeDevices', list(volumeDevice)],
  [10, 'livenessProbe', ptr(probe)],
  [11, 'readinessProbe', ptr(probe)],
  [22, 'startupProbe', ptr(probe)],
  [12, 'lifecycle', ptr(lifecycle)],
  [13, 'terminationMessagePath', string],
  [20, 'terminationMessagePolicy', string],
  [14, 'imagePullPolicy', string],
  [15, 'securityContext', ptr(securityContext)],
  [16, 'stdin', bool],
  [17, 'stdinOnce', bool],
  [18, 'tty', bool],
];

export const container = message('Container', containerRows);

/** JSON inlines EphemeralContainerCommon; the wire nests it as field 1. */
export const ephemeralContainer = message('EphemeralContainer', () => [
  [1, '', inline(message('EphemeralContainerCommon', containerRows))],
  [2, 'targetContainerName', string],
]);
