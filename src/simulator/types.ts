import type { KubeObject } from '../kube/index.js';

/**
 * The parts of the workload kinds the simulator reads and writes. Only what it uses is typed; the
 * rest of each object passes through untouched (KubeObject keeps an index signature).
 */

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

export interface Container {
  name: string;
  image?: string;
  [key: string]: unknown;
}

export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  restartPolicy?: string;
  [key: string]: unknown;
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; [key: string]: unknown };
  spec?: PodSpec;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastProbeTime: string | null;
  lastTransitionTime: string;
  reason?: string;
  message?: string;
}

export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  conditions?: PodCondition[];
  [key: string]: unknown;
}

export interface Pod extends KubeObject {
  spec?: PodSpec;
  status?: PodStatus;
}

export interface Deployment extends KubeObject {
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    template?: PodTemplate;
    strategy?: {
      type?: 'RollingUpdate' | 'Recreate';
      rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string };
    };
    revisionHistoryLimit?: number;
    minReadySeconds?: number;
    paused?: boolean;
  };
  status?: Record<string, unknown> & { conditions?: WorkloadCondition[] };
}

export interface ReplicaSet extends KubeObject {
  spec?: { replicas?: number; selector?: LabelSelector; template?: PodTemplate; minReadySeconds?: number };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    fullyLabeledReplicas?: number;
    observedGeneration?: number;
  };
}

export interface StatefulSet extends KubeObject {
  spec?: {
    replicas?: number;
    serviceName?: string;
    selector?: LabelSelector;
    template?: PodTemplate;
    podManagementPolicy?: 'OrderedReady' | 'Parallel';
    updateStrategy?: { type?: 'RollingUpdate' | 'OnDelete'; rollingUpdate?: { partition?: number } };
    volumeClaimTemplates?: Array<KubeObject & { spec?: Record<string, unknown> }>;
    persistentVolumeClaimRetentionPolicy?: { whenDeleted?: 'Retain' | 'Delete'; whenScaled?: 'Retain' | 'Delete' };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: { currentRevision?: string; updateRevision?: string; [key: string]: unknown };
}

export interface Job extends KubeObject {
  spec?: {
    parallelism?: number;
    completions?: number | null;
    completionMode?: 'NonIndexed' | 'Indexed';
    suspend?: boolean;
    template?: PodTemplate;
  };
  status?: Record<string, unknown> & { conditions?: WorkloadCondition[]; startTime?: string };
}

/** Deployment, Job and ReplicaSet conditions share this shape (Job adds lastProbeTime, Deployment lastUpdateTime). */
export interface WorkloadCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  lastProbeTime?: string;
}
