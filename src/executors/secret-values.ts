// Values read from Secrets for a step (http headers). The caller registers each value with its
// Masker before using it, so the value never appears in errors, outputs or logs.

import { describeRef, type KubeObject } from '../kube/index.js';
import { defaultNamespace } from './namespace.js';
import { isPlainObject, kubeError } from './step-errors.js';
import { StepError, type StepContext } from './types.js';

export interface SecretKeyRef {
  name: string;
  key: string;
}

/** Every key of a Secret in the watched resource's namespace (a Flow may not reach into other namespaces), decoded. */
export async function readSecretData(
  name: string,
  ctx: StepContext,
): Promise<{ where: string; data: Map<string, string> }> {
  const target = { apiVersion: 'v1', kind: 'Secret', name, namespace: defaultNamespace(ctx) };
  let secret: KubeObject | undefined;
  try {
    secret = await ctx.kube.get(target);
  } catch (err) {
    throw kubeError(err, `read ${describeRef(target)}`);
  }
  if (!secret) throw new StepError(`secret ${describeRef(target)} not found`, { reason: 'NotFound', statusCode: 404 });
  const out = new Map<string, string>();
  const stringData = isPlainObject(secret.stringData) ? secret.stringData : {};
  for (const [key, plain] of Object.entries(stringData)) if (typeof plain === 'string') out.set(key, plain);
  const data = isPlainObject(secret.data) ? secret.data : {};
  for (const [key, encoded] of Object.entries(data)) {
    if (typeof encoded === 'string') out.set(key, Buffer.from(encoded, 'base64').toString('utf8'));
  }
  return { where: `secret ${describeRef(target)}`, data: out };
}

/** Reads one key of a Secret in the watched resource's namespace. */
export async function readSecretValue(ref: SecretKeyRef, ctx: StepContext): Promise<string> {
  const { where, data } = await readSecretData(ref.name, ctx);
  const value = data.get(ref.key);
  if (value !== undefined) return value;
  throw new StepError(`${where} has no key "${ref.key}"`, { reason: 'SecretKeyNotFound' });
}
