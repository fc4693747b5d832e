import type { Admission, Operation } from '../objects/object-store.js';
import type { JsonObject, ResourceType } from '../registry/types.js';
import { defaultNamespace, defaultSecret } from './core-v1.js';

/** Defaults one kind's object in place. */
export type Defaulter = (obj: JsonObject, op: Operation) => void;

/** Keyed by `group/version/kind` ("" for core). */
const DEFAULTERS: Record<string, Defaulter> = {
  '/v1/Namespace': defaultNamespace,
  '/v1/Secret': defaultSecret,
};

export function defaulterFor(t: Pick<ResourceType, 'group' | 'version' | 'kind'>): Defaulter | undefined {
  const key = `${t.group}/${t.version}/${t.kind}`;
  return Object.hasOwn(DEFAULTERS, key) ? DEFAULTERS[key] : undefined;
}

/**
 * kube-apiserver defaults a built-in object when it decodes a request body (the generated
 * SetDefaults_* functions), so creates, updates, patches and server-side applies all store
 * defaulted objects. Here that is one admission step on the object about to be stored, after the
 * strategy has resolved generateName and reset what the server owns.
 */
export class BuiltinDefaulting implements Admission {
  admit(t: ResourceType, op: Operation, obj: JsonObject): void {
    if (t.custom || op === 'DELETE') return;
    defaulterFor(t)?.(obj, op);
  }
}
