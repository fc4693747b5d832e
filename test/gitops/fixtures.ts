import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import type { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { waitFor } from '../helpers/wait.js';

/** A small valid Flow; `kind` is the watched kind, `marker` lands in its step so changes are visible. */
export function flowYaml(name: string, marker = 'v1', kind = 'Widget'): string {
  return `apiVersion: flowops.io/v1
kind: Flow
metadata:
  name: ${name}
spec:
  watch:
    apiVersion: example.com/v1
    kind: ${kind}
  reconcile:
    steps:
      - name: make-config
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: "{{ .Resource.metadata.name }}-${marker}"
            namespace: "{{ .Resource.metadata.namespace }}"
`;
}

export function flowSource(
  name: string,
  url: string,
  extra: Record<string, unknown> = {},
  namespace = 'default',
): KubeObject {
  return {
    apiVersion: 'flowops.io/v1',
    kind: 'FlowSource',
    metadata: { name, namespace },
    spec: { url, ref: { branch: 'main' }, interval: '1h', ...extra },
  };
}

export interface SourceStatus {
  lastAppliedRevision?: string;
  lastAttemptedRevision?: string;
  conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>;
  inventory?: Array<{ kind: string; name: string; path: string; namespace?: string }>;
  skipped?: Array<{ kind: string; name: string; reason: string }>;
  history?: Array<{ revision: string; outcome: string; message?: string }>;
}

export async function sourceStatus(kube: KubeClient, name: string, namespace = 'default'): Promise<SourceStatus> {
  const s = await kube.get({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', name, namespace });
  return (s?.status ?? {}) as SourceStatus;
}

export const ready = (s: SourceStatus): { status: string; reason?: string; message?: string } | undefined =>
  s.conditions?.find((c) => c.type === 'Ready');

/** Waits until the source has attempted `sha` (applied or not) and returns its status. */
export function attempted(kube: KubeClient, name: string, sha: string, namespace = 'default'): Promise<SourceStatus> {
  return waitFor(
    async () => {
      const s = await sourceStatus(kube, name, namespace);
      return s.lastAttemptedRevision?.endsWith(sha) && s.history?.[0]?.revision.endsWith(sha) ? s : undefined;
    },
    { what: `source ${name} to attempt ${sha}`, timeoutMs: 20_000 },
  );
}

export async function flowNames(kube: KubeClient, namespace = 'default'): Promise<string[]> {
  return (await kube.list('flowops.io/v1', 'Flow', { namespace })).items.map((f) => f.metadata.name!).sort();
}

/** FlowOps with its Git poller plus a Git server, started for the enclosing describe block. */
export function gitopsEnvironment(): { env: () => FlowOpsEnv; git: () => GitServer } {
  let env: FlowOpsEnv | undefined;
  let git: GitServer | undefined;
  beforeAll(async () => {
    env = await startFlowOps({ sources: { dataDir: mkdtempSync(join(tmpdir(), 'flowops-sources-')) } });
    git = await startGitServer();
  });
  afterAll(async () => {
    await env?.stop();
    await git?.stop();
  });
  return { env: () => env!, git: () => git! };
}
