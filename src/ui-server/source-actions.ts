// What the Source page's buttons do: pin to a commit (rollback), unpin, suspend, resume, sync now.
// Pin, unpin, suspend and resume are spec changes, made as `flowops rollback` makes them; the
// API server's answer (a 403 where RBAC forbids it, a 422) is passed on with its message.

import {
  FLOWSOURCE_API_VERSION,
  FLOWSOURCE_KIND,
  type FlowSourceStatus,
  RECONCILE_REQUEST_ANNOTATION,
} from '../api/index.js';
import type { KubeClient, ObjectRef } from '../kube/index.js';
import { KubeApiError } from '../kube/rest.js';
import { shaOfRevision } from '../source/revision.js';
import type { ActionResult, SourceAction } from './types.js';

export class ActionError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** Parses the request body; anything else is a 400. */
export function parseSourceAction(body: unknown): SourceAction {
  const b = (body && typeof body === 'object' ? body : {}) as { action?: unknown; commit?: unknown };
  switch (b.action) {
    case 'pin':
      if (typeof b.commit !== 'string' || !/^[0-9a-f]{40}$/.test(b.commit))
        throw new ActionError(400, 'pin needs the full 40-character commit sha');
      return { action: 'pin', commit: b.commit };
    case 'unpin':
    case 'suspend':
    case 'resume':
    case 'sync':
      return { action: b.action };
    default:
      throw new ActionError(400, 'action must be one of pin, unpin, suspend, resume, sync');
  }
}

export interface SourceActionsOptions {
  kube: KubeClient;
  /** Sync a source now (the Git poller's trigger); absent where the poller runs in another process. */
  syncNow?: (namespace: string, name: string) => void;
}

export async function runSourceAction(
  opts: SourceActionsOptions,
  namespace: string,
  name: string,
  a: SourceAction,
): Promise<ActionResult> {
  const ref: ObjectRef = { apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, namespace, name };
  const source = await opts.kube.get(ref);
  if (!source) throw new ActionError(404, `FlowSource ${namespace}/${name} not found`);
  const label = `${namespace}/${name}`;
  try {
    switch (a.action) {
      case 'pin': {
        const history = ((source.status ?? {}) as FlowSourceStatus).history ?? [];
        if (!history.some((h) => shaOfRevision(h.revision) === a.commit))
          throw new ActionError(400, `${a.commit.slice(0, 8)} is not in the history of ${label}`);
        await opts.kube.patch(ref, { spec: { ref: { commit: a.commit } } }, 'merge');
        return { message: `${label} pinned to ${a.commit.slice(0, 8)}` };
      }
      case 'unpin':
        await opts.kube.patch(ref, { spec: { ref: { commit: null } } }, 'merge');
        return { message: `${label} unpinned: following its branch again` };
      case 'suspend':
        await opts.kube.patch(ref, { spec: { suspend: true } }, 'merge');
        return { message: `${label} suspended: no polling or applying until resumed` };
      case 'resume':
        await opts.kube.patch(ref, { spec: { suspend: null } }, 'merge');
        return { message: `${label} resumed` };
      case 'sync':
        if (opts.syncNow) opts.syncNow(namespace, name);
        // Where the poller is another process (the leader of `flowops run`), the request goes the
        // way `flowops reconcile` sends it, and with this reader's rights.
        else
          await opts.kube.patch(
            ref,
            { metadata: { annotations: { [RECONCILE_REQUEST_ANNOTATION]: new Date().toISOString() } } },
            'merge',
          );
        return { message: `${label}: sync started` };
    }
  } catch (err) {
    if (err instanceof KubeApiError) throw new ActionError(err.statusCode, err.message);
    throw err;
  }
}
