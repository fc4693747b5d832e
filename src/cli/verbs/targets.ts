// The two kinds the everyday verbs act on, by the words users type (`flowops suspend source flows`).

import { FLOW_API_VERSION, FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND } from '../../api/names.js';
import type { KubeClient, ObjectRef } from '../../kube/index.js';
import { contextNamespace } from '../context-namespace.js';
import { SetupError } from '../../util/setup-error.js';

export type TargetKind = 'flow' | 'source';

const KINDS: Record<TargetKind, { apiVersion: string; kind: string }> = {
  flow: { apiVersion: FLOW_API_VERSION, kind: 'Flow' },
  source: { apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND },
};

export function targetKind(word: string): TargetKind {
  const w = word.toLowerCase();
  if (w === 'flow' || w === 'flows' || w === 'fl') return 'flow';
  if (w === 'source' || w === 'sources' || w === 'flowsource' || w === 'flowsources') return 'source';
  throw new SetupError(`expected "flow" or "source", got "${word}"`);
}

/** `[namespace/]name`; the namespace defaults to the context's, else "default". */
export function targetRef(kube: KubeClient, kind: TargetKind, arg: string, namespace?: string): ObjectRef {
  const parts = arg.split('/');
  if (parts.length > 2 || !parts.at(-1)) throw new SetupError(`expected [namespace/]name, got "${arg}"`);
  const ns = parts.length === 2 ? parts[0]! : (namespace ?? contextNamespace(kube));
  return { ...KINDS[kind], namespace: ns, name: parts.at(-1)! };
}

export const kindOf = (kind: TargetKind): { apiVersion: string; kind: string } => KINDS[kind];
