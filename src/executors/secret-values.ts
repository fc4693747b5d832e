// Values read from Secrets for a step (http headers). The caller registers each value with its
// Masker before using it, so the value never appears in errors, outputs or logs.

import { describeRef, type KubeObject } from '../kube/types.js';
import { defaultNamespace } from './namespace.js';
import { isPlainObject, kubeError } from './step-errors.js';
import { StepError, type StepContext } from './types.js';

export interface SecretKeyRef {
  name: string;
  key: string;
}

/** Reads one key of a Secret in the watched resource's namespace (a Flow may not reach into other namespaces). */
export async function readSecretValue(ref: SecretKeyRef, ctx: StepContext): Promise<string> {
  const target = { apiVersion: 'v1', kind: 'Secret', name: ref.name, namespace: defaultNamespace(ctx) };
  let secret: KubeObject | undefined;
  try {
    secret = await ctx.kube.get(target);
  } catch (err) {
    throw kubeError(err, `read ${describeRef(target)}`);
  }
  if (!secret) throw new StepError(`secret ${describeRef(target)} not found`, { reason: 'NotFound', statusCode: 404 });
  const data = isPlainObject(secret.data) ? secret.data : {};
  const stringData = isPlainObject(secret.stringData) ? secret.stringData : {};
  const encoded = data[ref.key];
  if (typeof encoded === 'string') return Buffer.from(encoded, 'base64').toString('utf8');
  const plain = stringData[ref.key];
  if (typeof plain === 'string') return plain;
  throw new StepError(`secret ${describeRef(target)} has no key "${ref.key}"`, { reason: 'SecretKeyNotFound' });
}
