import { NotFoundError, SetupError } from '../util/setup-error.js';
import { FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND } from '../api/names.js';
import type { KubeClient, KubeObject, ObjectRef } from '../kube/index.js';
import { kubeFrom } from './cluster-flags.js';
import { contextNamespace } from './context-namespace.js';

/** `[namespace/]name` of a FlowSource; the namespace defaults to the kubeconfig context's, else "default". */
export function sourceRefOf(arg: string, kube: KubeClient): ObjectRef {
  const [a, b] = arg.split('/');
  const namespace = b !== undefined ? a! : contextNamespace(kube);
  const name = b ?? a!;
  if (!name || arg.split('/').length > 2) throw new SetupError(`expected [namespace/]name, got "${arg}"`);
  return { apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, namespace, name };
}

export async function loadSource(
  arg: string,
  kubeconfig: string | undefined,
): Promise<{ kube: KubeClient; ref: ObjectRef; source: KubeObject }> {
  const kube = await kubeFrom({ kubeconfig });
  const ref = sourceRefOf(arg, kube);
  const source = await kube.get(ref);
  if (!source) throw new NotFoundError(`FlowSource ${ref.namespace}/${ref.name} not found`);
  return { kube, ref, source };
}
