// `flowops rollout status|promote|pause|resume|abort flow NAME`. Status follows the Flow with a
// watch (an informer on Flows in its namespace), never a sleep loop; the controls are merge
// patches of the contract's annotations, refused where they mean nothing (api/rollout-controls.ts).

import pino from 'pino';
import { CONTROL_DONE, controlPatch, RolloutControlError, type RolloutControl } from '../../api/rollout-controls.js';
import type { RolloutStatus } from '../../api/index.js';
import type { KubeClient, KubeObject, ObjectRef } from '../../kube/index.js';
import { Informer } from '../../kube/informer.js';
import { SetupError } from '../../util/setup-error.js';
import { targetKind, targetRef } from '../verbs/targets.js';
import { describeRollout, flowRollout, progressLine, verdictOf } from './rollout-view.js';

export const FIELD_MANAGER = 'flowops';
/** The label on a Flow's ControllerRevisions (one per generation in use). */
const FLOW_LABEL = 'flowops.io/flow';

export interface StatusFlags {
  namespace?: string | undefined;
  watch: boolean;
  /** Milliseconds; 0 waits for ever, as kubectl's --timeout=0 does. */
  timeout: number;
}

export interface Said {
  out: string;
  err: string;
  code: number;
}

function flowRef(kube: KubeClient, kindWord: string, name: string, namespace: string | undefined): ObjectRef {
  if (targetKind(kindWord) !== 'flow')
    throw new SetupError(`rollout works on flows: expected "flow", got "${kindWord}"`);
  return targetRef(kube, 'flow', name, namespace);
}

async function existing(kube: KubeClient, ref: ObjectRef): Promise<KubeObject> {
  const flow = await kube.get(ref);
  if (!flow) throw new SetupError(`Flow ${ref.namespace}/${ref.name} not found`);
  return flow;
}

export async function runControl(
  kube: KubeClient,
  control: RolloutControl,
  kindWord: string,
  name: string,
  namespace: string | undefined,
  now = new Date(),
): Promise<string> {
  const ref = flowRef(kube, kindWord, name, namespace);
  const flow = await existing(kube, ref);
  const rollout = ((flow.status ?? {}) as { rollout?: RolloutStatus }).rollout;
  let patch: ReturnType<typeof controlPatch>;
  try {
    patch = controlPatch(
      control,
      { namespace: ref.namespace ?? 'default', name: ref.name, annotations: flow.metadata.annotations ?? {}, rollout },
      now,
    );
  } catch (err) {
    // Refused: a mistake in what was asked, said in one line with kubectl's usage exit code.
    if (err instanceof RolloutControlError) throw new SetupError(err.message);
    throw err;
  }
  await kube.patch(ref, patch, 'merge', { fieldManager: FIELD_MANAGER });
  return `flow.flowops.io/${ref.name} ${CONTROL_DONE[control]}\n`;
}

/**
 * One shot: the whole picture, exit 0. Watching: a line each time the progress changes, then exit
 * 0 on Complete, 1 on Halted/RolledBack/Aborted (with the reasons) or when --timeout passes.
 */
export async function runStatus(
  kube: KubeClient,
  kindWord: string,
  name: string,
  flags: StatusFlags,
  say: (line: string) => void,
): Promise<Said> {
  const ref = flowRef(kube, kindWord, name, flags.namespace);
  const first = flowRollout(await existing(kube, ref));
  const label = `Flow ${ref.namespace}/${ref.name}`;
  if (!flags.watch) {
    const { items } = await kube.list('apps/v1', 'ControllerRevision', {
      namespace: ref.namespace ?? 'default',
      labelSelector: `${FLOW_LABEL}=${ref.name}`,
    });
    return { out: describeRollout(first, new Set(items.map((i) => i.metadata.name ?? ''))), err: '', code: 0 };
  }
  const settled = verdictOf(first);
  if (settled.ended)
    return settled.ok ? { out: settled.text, err: '', code: 0 } : { out: '', err: settled.text, code: 1 };
  return new Promise<Said>((resolve) => {
    let last = '';
    let done = false;
    const informer = new Informer(
      kube,
      {
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        ...(ref.namespace ? { namespace: ref.namespace } : {}),
        log: pino({ level: 'silent' }),
      },
      {
        add: (o) => seen(o),
        update: (o) => seen(o),
        delete: (o) => o.metadata.name === ref.name && finish({ out: '', err: `${label} was deleted\n`, code: 1 }),
      },
    );
    const timer =
      flags.timeout > 0
        ? setTimeout(
            () =>
              finish({
                out: '',
                err: `timed out after ${Math.round(flags.timeout / 1000)}s waiting for the rollout of ${label}\n`,
                code: 1,
              }),
            flags.timeout,
          )
        : undefined;
    const finish = (said: Said): void => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      void informer.stop().then(() => resolve(said));
    };
    const seen = (o: KubeObject): void => {
      if (o.metadata.name !== ref.name || done) return;
      const f = flowRollout(o);
      const v = verdictOf(f);
      if (v.ended) return finish(v.ok ? { out: v.text, err: '', code: 0 } : { out: '', err: v.text, code: 1 });
      const line = progressLine(f);
      if (line !== last) say((last = line));
    };
    informer.start();
  });
}
