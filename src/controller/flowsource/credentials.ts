import type { FlowSourceSpec } from '../../api/index.js';
import type { KubeClient } from '../../kube/index.js';
import {
  credentialsFromSecretData,
  type GitCredentials,
  SourceError,
  sopsKeysFromSecretData,
  type SopsKeys,
} from '../../source/index.js';

/** The Git credentials a FlowSource names in spec.secretRef (a Secret in its own namespace). */
export async function sourceCredentials(
  kube: KubeClient,
  namespace: string,
  spec: FlowSourceSpec,
): Promise<GitCredentials | undefined> {
  if (!spec.secretRef) return undefined;
  const secret = await kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: spec.secretRef.name });
  const creds = credentialsFromSecretData(secret?.data as Record<string, string> | undefined);
  if (!creds)
    throw new SourceError(
      'AuthRequired',
      `Secret ${namespace}/${spec.secretRef.name} ${secret ? 'has neither username/password nor bearerToken' : 'not found'}`,
    );
  return creds;
}

/** The SOPS decryption keys spec.decryption.secretRef names; undefined without spec.decryption. */
export async function decryptionKeys(
  kube: KubeClient,
  namespace: string,
  spec: FlowSourceSpec,
): Promise<SopsKeys | undefined> {
  if (!spec.decryption) return undefined;
  const where = `Secret ${namespace}/${spec.decryption.secretRef.name} (spec.decryption.secretRef)`;
  const secret = await kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: spec.decryption.secretRef.name });
  if (!secret) throw new SourceError('DecryptionKeysInvalid', `${where} not found`);
  const keys = await sopsKeysFromSecretData(secret.data as Record<string, string> | undefined);
  if (!keys.ok) throw new SourceError('DecryptionKeysInvalid', `${where}: ${keys.problems.slice(0, 5).join('; ')}`);
  return keys.keys;
}
