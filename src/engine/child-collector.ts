// Collects the children one reconcile applies (the executors tell it of each object as the server
// returned it) and judges them: kstatus rules, or the step's readyWhen template.

import type { ChildRecorder, TemplateData } from '../executors/index.js';
import { healthOf, type Health } from '../kube/readiness.js';
import type { KubeObject } from '../kube/index.js';
import { renderValue } from '../template/index.js';
import { childId, describeChild, type ChildEntry } from './child-inventory.js';
import { truthy } from './truthy.js';

interface Collected {
  live: KubeObject;
  step: string;
  keep: boolean;
  readyWhen: string | undefined;
}

export interface ChildVerdict {
  entry: ChildEntry;
  health: Health;
}

export class ChildCollector implements ChildRecorder {
  // By id: a later step applying the same object again replaces the earlier record.
  private readonly byId = new Map<string, Collected>();

  record(live: KubeObject, opts: { step: string; keep: boolean; readyWhen?: string }): void {
    const id = childId({
      apiVersion: live.apiVersion,
      kind: live.kind,
      namespace: live.metadata.namespace,
      name: live.metadata.name ?? '',
    });
    this.byId.set(id, { live, step: opts.step, keep: opts.keep, readyWhen: opts.readyWhen });
  }

  /** What was recorded, for the run memo (run-memo.ts). */
  collected(): Array<{ live: KubeObject; step: string; keep: boolean; readyWhen: string | undefined }> {
    return [...this.byId.values()];
  }

  get size(): number {
    return this.byId.size;
  }

  /** The inventory of this run; `ownerUid` tells which children the garbage collector will remove. */
  entries(ownerUid: string | undefined): ChildEntry[] {
    return [...this.byId.values()].map((c) => entryOf(c, ownerUid));
  }

  /** The live children, for status templates: `.Children.<Kind>.<name>`. */
  templateData(): Record<string, Record<string, KubeObject>> {
    const out: Record<string, Record<string, KubeObject>> = {};
    for (const c of this.byId.values()) (out[c.live.kind] ??= {})[c.live.metadata.name!] = c.live;
    return out;
  }

  /**
   * Every child's health. readyWhen (a template over .Child, .Resource and the steps' outputs)
   * replaces the kstatus rules for that step's objects; a readyWhen that fails to render throws
   * (a TemplateRenderError, which the reconciler reports as terminal).
   */
  judge(data: TemplateData): ChildVerdict[] {
    return [...this.byId.values()].map((c) => {
      const entry = entryOf(c, undefined);
      if (c.readyWhen === undefined) return { entry, health: healthOf(c.live) };
      const ok = truthy(renderValue(c.readyWhen, { ...data, Child: c.live }, { name: `${c.step}.readyWhen` }));
      return {
        entry,
        health: ok ? { status: 'Current', message: '' } : { status: 'InProgress', message: 'readyWhen is false' },
      };
    });
  }
}

function entryOf(c: Collected, ownerUid: string | undefined): ChildEntry {
  const o = c.live;
  const collected = ownerUid !== undefined && (o.metadata.ownerReferences ?? []).some((r) => r.uid === ownerUid);
  const cleanup = c.keep ? 'keep' : collected ? undefined : 'flowops';
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
    name: o.metadata.name!,
    ...(cleanup ? { cleanup } : {}),
  };
}

/** `StatefulSet my-postgres: 0/3 replicas ready; Job other/x: job failed`, in apply order; the owner's namespace is left out. */
export function notReadyMessage(verdicts: readonly ChildVerdict[], ownerNamespace: string | undefined): string {
  return verdicts
    .filter((v) => v.health.status !== 'Current')
    .map(
      (v) =>
        `${describeChild(v.entry.namespace === ownerNamespace ? { kind: v.entry.kind, name: v.entry.name } : v.entry)}: ${v.health.message}`,
    )
    .join('; ');
}
