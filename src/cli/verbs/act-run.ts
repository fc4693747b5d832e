// `flowops reconcile|suspend|resume flow|source NAME`: the verbs that change a Flow or a
// FlowSource, as Flux's CLI does (an annotation to run now, spec.suspend to stop and go on).

import { RECONCILE_REQUEST_ANNOTATION } from '../../api/reconcile-request.js';
import type { KubeClient, Condition, KubeObject, ObjectRef } from '../../kube/index.js';
import { SetupError } from '../../util/setup-error.js';
import { targetKind, targetRef, type TargetKind } from './targets.js';

async function existing(kube: KubeClient, ref: ObjectRef): Promise<KubeObject> {
  const obj = await kube.get(ref);
  if (!obj) throw new SetupError(`${ref.kind} ${ref.namespace}/${ref.name} not found`);
  return obj;
}

export async function runSuspend(
  kube: KubeClient,
  kindWord: string,
  name: string,
  suspend: boolean,
  namespace?: string,
): Promise<string> {
  const ref = targetRef(kube, targetKind(kindWord), name, namespace);
  await existing(kube, ref);
  await kube.patch(ref, { spec: { suspend } }, 'merge', { fieldManager: 'flowops-cli' });
  return `${ref.kind} ${ref.namespace}/${ref.name} ${suspend ? 'suspended' : 'resumed'}\n`;
}

export interface ReconcileFlags {
  namespace?: string;
  wait?: boolean;
  timeout?: number;
}

/**
 * Sets the reconcile-request annotation; a Flow then runs every watched object again and a source
 * syncs now. `--wait` (sources) waits until the source answered this request and reports how.
 */
export async function runReconcile(
  kube: KubeClient,
  kindWord: string,
  name: string,
  flags: ReconcileFlags,
  progress: (line: string) => void,
): Promise<{ text: string; code: number }> {
  const kind: TargetKind = targetKind(kindWord);
  const ref = targetRef(kube, kind, name, flags.namespace);
  await existing(kube, ref);
  const requestedAt = new Date().toISOString();
  await kube.patch(ref, { metadata: { annotations: { [RECONCILE_REQUEST_ANNOTATION]: requestedAt } } }, 'merge', {
    fieldManager: 'flowops-cli',
  });
  const what = `${ref.kind} ${ref.namespace}/${ref.name}`;
  if (!flags.wait) return { text: `${what}: reconcile requested\n`, code: 0 };
  if (kind === 'flow')
    throw new SetupError(
      '--wait is for sources: a Flow re-runs each watched object on its own schedule; follow them with "flowops get runs" or "kubectl wait"',
    );
  const deadline = Date.now() + (flags.timeout ?? 120_000);
  const started = Date.now();
  for (;;) {
    const obj = await existing(kube, ref);
    const status = (obj.status ?? {}) as {
      lastHandledReconcileAt?: string;
      conditions?: Condition[];
      lastAppliedRevision?: string;
    };
    if (status.lastHandledReconcileAt === requestedAt) {
      const ready = status.conditions?.find((c) => c.type === 'Ready');
      const ok = ready?.status === 'True';
      return {
        text: `${what}: ${ok ? 'synced' : 'failed'}${status.lastAppliedRevision ? ` at ${status.lastAppliedRevision}` : ''}${ok ? '' : `: ${ready?.message ?? ready?.reason ?? 'not ready'}`}\n`,
        code: ok ? 0 : 1,
      };
    }
    if (Date.now() > deadline)
      return {
        text: `${what}: not answered within ${Math.round((flags.timeout ?? 120_000) / 1000)}s (is FlowOps running?)\n`,
        code: 1,
      };
    progress(`waiting for ${what} to sync… ${Math.round((Date.now() - started) / 1000)}s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
