import { isConflict, type KubeClient, type KubeObject } from '../kube/index.js';
import { SIMULATOR_FIELD_MANAGER, type ObjectWriter } from './object-writer.js';
import { controllerRef } from './pods.js';
import type { SharedInformer } from './shared-informers.js';
import type { StatefulSet } from './types.js';

interface ControllerRevision extends KubeObject {
  revision?: number;
}

/**
 * The StatefulSet controller's history: one ControllerRevision per pod template, named like the
 * pods' `controller-revision-hash`, numbered in order of use (going back to an older template
 * renumbers its revision as the newest), the oldest unused ones pruned beyond revisionHistoryLimit.
 * `kubectl rollout history` and `rollout undo` read them.
 */
export class ControllerRevisions {
  constructor(
    private readonly kube: KubeClient,
    private readonly revisions: SharedInformer,
    private readonly writer: ObjectWriter,
  ) {
    revisions.addListener({
      changed: (obj, _old, deleted) => {
        if (deleted) this.writer.forget(obj);
      },
    });
  }

  async record(sts: StatefulSet, name: string, keep: ReadonlySet<string>): Promise<void> {
    const owned = this.revisions.controlledBy(sts.metadata.uid) as ControllerRevision[];
    const current = owned.find((r) => r.metadata.name === name);
    const others = owned.filter((r) => r !== current);
    const next = Math.max(0, ...others.map((r) => r.revision ?? 0)) + 1;
    if (!current) await this.create(sts, name, next);
    else if ((current.revision ?? 0) < next) await this.writer.merge(current, { revision: next });
    const limit = sts.spec?.revisionHistoryLimit ?? 10;
    const prunable = others
      .filter((r) => !keep.has(r.metadata.name!))
      .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
    for (const r of prunable.slice(0, Math.max(0, prunable.length - limit))) {
      await this.kube.delete({
        apiVersion: 'apps/v1',
        kind: 'ControllerRevision',
        namespace: r.metadata.namespace,
        name: r.metadata.name!,
      });
    }
  }

  private async create(sts: StatefulSet, name: string, revision: number): Promise<void> {
    const hash = name.slice(sts.metadata.name!.length + 1);
    const cr: ControllerRevision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name,
        namespace: sts.metadata.namespace,
        labels: { ...sts.spec?.template?.metadata?.labels, 'controller.kubernetes.io/hash': hash },
        ownerReferences: [controllerRef(sts)],
      },
      // The patch the real controller stores: applied to the set, it restores this template.
      data: { spec: { template: { $patch: 'replace', ...structuredClone(sts.spec?.template ?? {}) } } },
      revision,
    };
    try {
      await this.kube.create(cr, { fieldManager: SIMULATOR_FIELD_MANAGER });
    } catch (e) {
      if (!isConflict(e)) throw e; // recorded by an earlier sync the cache has not shown yet
    }
  }
}
