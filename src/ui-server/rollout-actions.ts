// The Flow page's rollout: what it shows (FlowRolloutView) and what its buttons do. The controls
// are `flowops rollout`'s own (api/rollout-controls.ts): the same annotations, the same refusals,
// written with the reader's rights, so RBAC decides as it does for kubectl.

import {
  FLOW_API_VERSION,
  FLOW_KIND,
  CONTROL_DONE,
  controlPatch,
  ROLLOUT_CONTROLS,
  ROLLOUT_PAUSED_ANNOTATION,
  RolloutControlError,
  type RolloutControl,
  type GenerationStatus,
  type RolloutStatus,
} from '../api/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { KubeApiError } from '../kube/rest.js';
import { ActionError } from './source-actions.js';
import type { ActionResult, FlowRolloutView } from './types.js';

/** The same field manager as `flowops rollout`: a control is the user's, whichever way it was made. */
const FIELD_MANAGER = 'flowops';

const forControl = (flow: KubeObject, rollout: RolloutStatus | undefined) => ({
  namespace: flow.metadata.namespace ?? 'default',
  name: flow.metadata.name ?? '',
  annotations: flow.metadata.annotations ?? {},
  rollout,
});

/** Undefined for a Flow with neither spec.rollout nor a rollout status: the page shows no section. */
export function rolloutViewOf(flow: KubeObject): FlowRolloutView | undefined {
  const status = (flow.status ?? {}) as { rollout?: RolloutStatus; generations?: GenerationStatus[] };
  const hasSpec = ((flow.spec ?? {}) as { rollout?: unknown }).rollout != null;
  const r = status.rollout;
  if (!hasSpec && !r && !status.generations?.length) return undefined;
  const controls = ROLLOUT_CONTROLS.filter((c) => {
    try {
      controlPatch(c, forControl(flow, r), new Date());
      return true;
    } catch (err) {
      if (err instanceof RolloutControlError) return false;
      throw err;
    }
  });
  return {
    ...(r
      ? {
          rollout: {
            ...(r.generation !== undefined ? { generation: r.generation } : {}),
            ...(r.fromGeneration !== undefined ? { fromGeneration: r.fromGeneration } : {}),
            ...(r.state ? { state: r.state } : {}),
            ...(r.currentStage !== undefined ? { currentStage: r.currentStage } : {}),
            ...(r.startedAt ? { startedAt: r.startedAt } : {}),
            ...(r.message ? { message: r.message } : {}),
            stages: r.stages ?? [],
            failed: r.failed ?? [],
          },
        }
      : {}),
    generations: status.generations ?? [],
    paused: flow.metadata.annotations?.[ROLLOUT_PAUSED_ANNOTATION] === 'true',
    controls,
  };
}

/** Parses the request body; anything else is a 400. */
export function parseRolloutControl(body: unknown): RolloutControl {
  const action = body && typeof body === 'object' ? (body as { action?: unknown }).action : undefined;
  const known = ROLLOUT_CONTROLS.find((c) => c === action);
  if (!known) throw new ActionError(400, `action must be one of ${ROLLOUT_CONTROLS.join(', ')}`);
  return known;
}

export async function runRolloutControl(
  kube: KubeClient,
  namespace: string,
  name: string,
  control: RolloutControl,
): Promise<ActionResult> {
  const ref = { apiVersion: FLOW_API_VERSION, kind: FLOW_KIND, namespace, name };
  try {
    const flow = await kube.get(ref);
    if (!flow) throw new ActionError(404, `Flow ${namespace}/${name} not found`);
    const rollout = ((flow.status ?? {}) as { rollout?: RolloutStatus }).rollout;
    await kube.patch(ref, controlPatch(control, forControl(flow, rollout), new Date()), 'merge', {
      fieldManager: FIELD_MANAGER,
    });
    return { message: `flow.flowops.io/${name} ${CONTROL_DONE[control]}` };
  } catch (err) {
    // Refused: the state moved on since the page was drawn (409, as a conflicting write is).
    if (err instanceof RolloutControlError) throw new ActionError(409, err.message);
    if (err instanceof KubeApiError) throw new ActionError(err.statusCode, err.message);
    throw err;
  }
}
