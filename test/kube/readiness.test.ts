import { describe, expect, it } from 'vitest';
import { healthOf } from '../../src/kube/readiness.js';
import type { KubeObject } from '../../src/kube/types.js';

// Status objects shaped as the 1.3x controllers write them.
const obj = (apiVersion: string, kind: string, spec: unknown, status: unknown, generation = 2): KubeObject =>
  ({
    apiVersion,
    kind,
    metadata: { name: 'x', namespace: 'default', generation },
    spec,
    status,
  }) as unknown as KubeObject;

describe('healthOf: kstatus rules per kind', () => {
  it.each([
    [
      'a Deployment rolled out',
      obj(
        'apps/v1',
        'Deployment',
        { replicas: 3 },
        {
          observedGeneration: 2,
          replicas: 3,
          updatedReplicas: 3,
          readyReplicas: 3,
          availableReplicas: 3,
          conditions: [
            { type: 'Available', status: 'True' },
            { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
          ],
        },
      ),
      'Current',
      '',
    ],
    [
      'a Deployment half-updated',
      obj(
        'apps/v1',
        'Deployment',
        { replicas: 4 },
        { observedGeneration: 2, replicas: 5, updatedReplicas: 2, readyReplicas: 4, availableReplicas: 4 },
      ),
      'InProgress',
      '2/4 replicas updated',
    ],
    [
      'a Deployment with old replicas left',
      obj(
        'apps/v1',
        'Deployment',
        { replicas: 2 },
        { observedGeneration: 2, replicas: 3, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 },
      ),
      'InProgress',
      '1 old replicas pending termination',
    ],
    [
      'a Deployment past its deadline',
      obj(
        'apps/v1',
        'Deployment',
        { replicas: 1 },
        {
          observedGeneration: 2,
          conditions: [
            {
              type: 'Progressing',
              status: 'False',
              reason: 'ProgressDeadlineExceeded',
              message: 'ReplicaSet "x-1" has timed out progressing.',
            },
          ],
        },
      ),
      'Failed',
      'progress deadline exceeded: ReplicaSet "x-1" has timed out progressing.',
    ],
    [
      'a Deployment whose new spec is not observed',
      obj(
        'apps/v1',
        'Deployment',
        { replicas: 1 },
        { observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 },
      ),
      'InProgress',
      'generation 2 not yet observed (observedGeneration 1)',
    ],
    [
      'a Deployment with replicas defaulted to 1 and no status',
      obj('apps/v1', 'Deployment', {}, {}),
      'InProgress',
      '0/1 replicas updated',
    ],
    [
      'a StatefulSet with no ready replicas',
      obj('apps/v1', 'StatefulSet', { replicas: 3 }, { observedGeneration: 2, replicas: 3 }),
      'InProgress',
      '0/3 replicas ready',
    ],
    [
      'a StatefulSet rolled out',
      obj(
        'apps/v1',
        'StatefulSet',
        { replicas: 3 },
        {
          observedGeneration: 2,
          replicas: 3,
          readyReplicas: 3,
          currentReplicas: 3,
          updatedReplicas: 3,
          currentRevision: 'x-7d',
          updateRevision: 'x-7d',
        },
      ),
      'Current',
      '',
    ],
    [
      'a StatefulSet mid-rollout',
      obj(
        'apps/v1',
        'StatefulSet',
        { replicas: 3 },
        {
          observedGeneration: 2,
          replicas: 3,
          readyReplicas: 3,
          currentReplicas: 3,
          updatedReplicas: 1,
          currentRevision: 'x-7d',
          updateRevision: 'x-8e',
        },
      ),
      'InProgress',
      'rolling update in progress',
    ],
    [
      'a StatefulSet with a partition reached',
      obj(
        'apps/v1',
        'StatefulSet',
        { replicas: 4, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } },
        {
          observedGeneration: 2,
          replicas: 4,
          readyReplicas: 4,
          updatedReplicas: 2,
          currentRevision: 'a',
          updateRevision: 'b',
        },
      ),
      'Current',
      '',
    ],
    [
      'a StatefulSet updated OnDelete',
      obj('apps/v1', 'StatefulSet', { replicas: 3, updateStrategy: { type: 'OnDelete' } }, { observedGeneration: 2 }),
      'Current',
      '',
    ],
    [
      'a DaemonSet on no nodes',
      obj(
        'apps/v1',
        'DaemonSet',
        {},
        { observedGeneration: 2, desiredNumberScheduled: 0, currentNumberScheduled: 0, numberReady: 0 },
      ),
      'Current',
      '',
    ],
    [
      'a DaemonSet with pods not ready',
      obj(
        'apps/v1',
        'DaemonSet',
        {},
        {
          observedGeneration: 2,
          desiredNumberScheduled: 3,
          currentNumberScheduled: 3,
          updatedNumberScheduled: 3,
          numberAvailable: 3,
          numberReady: 1,
        },
      ),
      'InProgress',
      '1/3 pods ready',
    ],
    [
      'a ReplicaSet scaled up',
      obj(
        'apps/v1',
        'ReplicaSet',
        { replicas: 2 },
        { observedGeneration: 2, replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2 },
      ),
      'Current',
      '',
    ],
    [
      'a Job complete',
      obj(
        'batch/v1',
        'Job',
        {},
        {
          succeeded: 1,
          conditions: [
            { type: 'SuccessCriteriaMet', status: 'True' },
            { type: 'Complete', status: 'True' },
          ],
        },
      ),
      'Current',
      '',
    ],
    [
      'a Job running',
      obj('batch/v1', 'Job', {}, { active: 1 }),
      'InProgress',
      'job not complete (0 succeeded, 1 active)',
    ],
    [
      'a Job failed',
      obj(
        'batch/v1',
        'Job',
        {},
        {
          failed: 6,
          conditions: [
            {
              type: 'Failed',
              status: 'True',
              reason: 'BackoffLimitExceeded',
              message: 'Job has reached the specified backoff limit',
            },
          ],
        },
      ),
      'Failed',
      'job failed: Job has reached the specified backoff limit',
    ],
    ['a PVC bound', obj('v1', 'PersistentVolumeClaim', {}, { phase: 'Bound' }), 'Current', ''],
    [
      'a PVC pending',
      obj('v1', 'PersistentVolumeClaim', {}, { phase: 'Pending' }),
      'InProgress',
      'claim is Pending, not Bound',
    ],
    ['a ClusterIP Service', obj('v1', 'Service', { type: 'ClusterIP' }, {}), 'Current', ''],
    [
      'a LoadBalancer Service without ingress',
      obj('v1', 'Service', { type: 'LoadBalancer' }, { loadBalancer: {} }),
      'InProgress',
      'load balancer has no ingress yet',
    ],
    [
      'a LoadBalancer Service with ingress',
      obj('v1', 'Service', { type: 'LoadBalancer' }, { loadBalancer: { ingress: [{ ip: '10.0.0.7' }] } }),
      'Current',
      '',
    ],
    [
      'a Pod running and ready',
      obj('v1', 'Pod', {}, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }),
      'Current',
      '',
    ],
    [
      'a Pod running, not ready',
      obj('v1', 'Pod', {}, { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] }),
      'InProgress',
      'pod is Running, not Ready',
    ],
    ['a ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } as KubeObject, 'Current', ''],
    [
      'a custom resource Ready=True',
      obj('example.com/v1', 'Database', {}, { conditions: [{ type: 'Ready', status: 'True', observedGeneration: 2 }] }),
      'Current',
      '',
    ],
    [
      'a custom resource Ready=False',
      obj(
        'example.com/v1',
        'Database',
        {},
        {
          conditions: [
            {
              type: 'Ready',
              status: 'False',
              reason: 'ChildrenNotReady',
              message: 'StatefulSet db: 0/3 replicas ready',
            },
          ],
        },
      ),
      'InProgress',
      'Ready=False (ChildrenNotReady): StatefulSet db: 0/3 replicas ready',
    ],
    [
      'a custom resource whose Ready is for an older generation',
      obj('example.com/v1', 'Database', {}, { conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1 }] }),
      'InProgress',
      'Ready condition is for generation 1, not 2',
    ],
    [
      'a custom resource Stalled',
      obj(
        'example.com/v1',
        'Database',
        {},
        { conditions: [{ type: 'Stalled', status: 'True', reason: 'InvalidSpec', message: 'bad spec' }] },
      ),
      'Failed',
      'bad spec',
    ],
    [
      'a custom resource Reconciling',
      obj(
        'example.com/v1',
        'Database',
        {},
        { conditions: [{ type: 'Reconciling', status: 'True', reason: 'Progressing' }] },
      ),
      'InProgress',
      'Progressing',
    ],
    ['a custom resource without conditions', obj('example.com/v1', 'Database', {}, {}), 'Current', ''],
    [
      'a CRD not yet established',
      obj(
        'apiextensions.k8s.io/v1',
        'CustomResourceDefinition',
        {},
        { conditions: [{ type: 'NamesAccepted', status: 'True' }] },
      ),
      'InProgress',
      'CustomResourceDefinition is not Established',
    ],
  ])('%s', (_what, o, status, message) => {
    expect(healthOf(o)).toEqual({ status, message });
  });

  it('counts an object being deleted as in progress', () => {
    const o = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', deletionTimestamp: '2026-01-01T00:00:00Z' },
    } as KubeObject;
    expect(healthOf(o)).toEqual({ status: 'InProgress', message: 'being deleted' });
  });
});
