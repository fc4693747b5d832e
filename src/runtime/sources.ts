import { existsSync } from 'node:fs';
import { FlowSourceController, exportsDirOf } from '../controller/index.js';
import { FIELD_MANAGER } from '../executors/index.js';
import { type KubeClient, EventRecorder, type KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { exportDirOf, shaOfRevision } from '../source/index.js';
import { provenanceOf } from '../sync/index.js';

export interface SourcesOptions {
  /** Folder for clones and per-commit exports. */
  dataDir: string;
  concurrency?: number;
  /** --default-service-account: sources without serviceAccountName apply as it. */
  defaultServiceAccount?: string;
}

/**
 * The FlowSource controller (Git poller + sync), not started: it is a LeaderRunnable, so
 * `flowops run` can pass it to startLeaderWork's `extra` and only the leader polls.
 */
export function createSources(kube: KubeClient, log: Logger, opts: SourcesOptions): FlowSourceController {
  return new FlowSourceController({
    kube,
    log: log.child({ part: 'sources' }),
    events: new EventRecorder(kube, 'flowops-source'),
    fieldManager: FIELD_MANAGER,
    dataDir: opts.dataDir,
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    ...(opts.defaultServiceAccount ? { defaultServiceAccount: opts.defaultServiceAccount } : {}),
  });
}

/** The embedded mode: one process is always the leader. */
export function startSources(kube: KubeClient, log: Logger, opts: SourcesOptions): FlowSourceController {
  const controller = createSources(kube, log, opts);
  controller.start();
  return controller;
}

/** A Flow applied from a FlowSource resolves chart and kustomize paths in that source's export of the applying commit. */
export function commitDirOf(sourcesDir: string, flow: KubeObject): string | undefined {
  const p = provenanceOf(flow);
  const sha = shaOfRevision(p?.revision);
  if (!p || !sha) return undefined;
  const dir = exportDirOf(exportsDirOf(sourcesDir, p.source), sha);
  return existsSync(dir) ? dir : undefined;
}
