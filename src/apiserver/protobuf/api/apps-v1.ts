import { bool, int, intOrString, objectMeta, string, time } from '../scalars.js';
import { list, message, ptr, req } from '../schema.js';
import { labelSelector } from './meta-v1.js';
import { podTemplateSpec } from './pod.js';

/** apps/v1 Deployment, which `kubectl create deployment` sends. */

const deploymentStrategy = message('DeploymentStrategy', () => [
  [1, 'type', string],
  [
    2,
    'rollingUpdate',
    ptr(
      message('RollingUpdateDeployment', () => [
        [1, 'maxUnavailable', ptr(intOrString)],
        [2, 'maxSurge', ptr(intOrString)],
      ]),
    ),
  ],
]);

const deploymentSpec = message('DeploymentSpec', () => [
  [1, 'replicas', ptr(int)],
  [2, 'selector', ptr(labelSelector)],
  [3, 'template', podTemplateSpec],
  [4, 'strategy', deploymentStrategy],
  [5, 'minReadySeconds', int],
  [6, 'revisionHistoryLimit', ptr(int)],
  [7, 'paused', bool],
  [9, 'progressDeadlineSeconds', ptr(int)],
]);

const deploymentCondition = message('DeploymentCondition', () => [
  [1, 'type', req(string)],
  [2, 'status', req(string)],
  [6, 'lastUpdateTime', time],
  [7, 'lastTransitionTime', time],
  [4, 'reason', string],
  [5, 'message', string],
]);

const deploymentStatus = message('DeploymentStatus', () => [
  [1, 'observedGeneration', int],
  [2, 'replicas', int],
  [3, 'updatedReplicas', int],
  [7, 'readyReplicas', int],
  [4, 'availableReplicas', int],
  [5, 'unavailableReplicas', int],
  [9, 'terminatingReplicas', ptr(int)],
  [6, 'conditions', list(deploymentCondition)],
  [8, 'collisionCount', ptr(int)],
]);

const deployment = message('Deployment', () => [
  [1, 'metadata', objectMeta],
  [2, 'spec', deploymentSpec],
  [3, 'status', deploymentStatus],
]);

export const APPS_V1 = { 'apps/v1/Deployment': deployment };
