// `KIND/NAME` as kubectl takes it (`database/my-postgres`, `sts/web`, `flow/database-operator`),
// resolved through discovery; every way it can be wrong is a one-line SetupError.

import type { KubeClient, ObjectRef } from '../kube/index.js';
import { resolveKind, UnknownResourceError } from '../kube/kind-resolver.js';
import { SetupError } from '../util/setup-error.js';

export function splitObjectArg(arg: string): { kind: string; name: string } {
  const slash = arg.indexOf('/');
  if (slash <= 0 || slash === arg.length - 1)
    throw new SetupError(`expected KIND/NAME (e.g. database/my-postgres), got "${arg}"`);
  return { kind: arg.slice(0, slash), name: arg.slice(slash + 1) };
}

/** The object KIND/NAME names (namespaced kinds in `namespace`, default "default"). */
export async function objectRefOf(
  kube: KubeClient,
  arg: string,
  namespace: string | undefined,
): Promise<ObjectRef & { namespaced: boolean }> {
  const { kind: word, name } = splitObjectArg(arg);
  try {
    const kind = await resolveKind(kube.rest, word);
    return {
      apiVersion: kind.apiVersion,
      kind: kind.kind,
      name,
      namespaced: kind.namespaced,
      ...(kind.namespaced ? { namespace: namespace ?? 'default' } : {}),
    };
  } catch (e) {
    if (e instanceof UnknownResourceError) throw new SetupError(e.message);
    throw e;
  }
}
