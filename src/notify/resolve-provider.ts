import { parseDuration, providerSpecSchema } from '../api/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { NotifyError } from './errors.js';
import type { Connection } from './http-send.js';
import type { ResolvedProvider } from './message.js';
import { defaultAddress } from './providers/index.js';

const DEFAULT_TIMEOUT_MS = 15_000;

async function secretData(
  kube: KubeClient,
  namespace: string,
  name: string,
  field: string,
): Promise<Record<string, string>> {
  const secret = await kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name });
  if (!secret) throw new NotifyError('SecretNotFound', `${field}: Secret ${namespace}/${name} not found`);
  const data = ((secret as { data?: Record<string, string> }).data ?? {}) as Record<string, string>;
  const strings = ((secret as { stringData?: Record<string, string> }).stringData ?? {}) as Record<string, string>;
  const out: Record<string, string> = { ...strings };
  for (const [k, v] of Object.entries(data)) out[k] = Buffer.from(v, 'base64').toString('utf8').trim();
  return out;
}

/** A Provider object with its Secret read: the address and token to send with, and how to connect. */
export async function resolveProvider(
  kube: KubeClient,
  obj: KubeObject,
): Promise<{ provider: ResolvedProvider; connection: Connection }> {
  const namespace = obj.metadata.namespace ?? 'default';
  const name = obj.metadata.name ?? '';
  const parsed = providerSpecSchema.safeParse(obj.spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new NotifyError('InvalidProvider', `spec.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const spec = parsed.data;
  const secret = spec.secretRef ? await secretData(kube, namespace, spec.secretRef.name, 'spec.secretRef') : {};
  const token = secret.token;
  const address = spec.address ?? secret.address ?? defaultAddress(spec.type, token);
  if (!address)
    throw new NotifyError(
      'InvalidProvider',
      `spec.address: a ${spec.type} provider needs an address (in the spec or the Secret's \`address\` key)`,
    );
  const ca = spec.certSecretRef
    ? (await secretData(kube, namespace, spec.certSecretRef.name, 'spec.certSecretRef'))['ca.crt']
    : undefined;
  if (spec.certSecretRef && !ca)
    throw new NotifyError(
      'InvalidProvider',
      `spec.certSecretRef: Secret ${namespace}/${spec.certSecretRef.name} has no ca.crt key`,
    );
  const connection: Connection = {
    timeoutMs: spec.timeout ? parseDuration(spec.timeout) : DEFAULT_TIMEOUT_MS,
    ...(ca ? { ca } : {}),
    ...(spec.proxy ? { proxy: spec.proxy } : {}),
  };
  return { provider: { name, namespace, spec, address, ...(token ? { token } : {}) }, connection };
}
