// Keyed cosign signatures on an OCI artifact, checked as `cosign verify --key` and Flux's
// OCIRepository spec.verify (provider cosign) check them (sigstore/cosign pkg/cosign/verify.go,
// VerifyImageSignatures with a static public key, offline): the signatures live in the same
// repository under the tag `sha256-<hex>.sig`, each a layer whose blob is the "simple signing"
// payload naming the signed manifest digest, with the base64 ECDSA/RSA signature over that payload
// in the layer's `dev.cosignproject.cosign/signature` annotation. One layer verified by one trusted
// key over a payload naming this digest accepts the artifact. Rekor/Fulcio are not consulted.

import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { SourceError } from '../errors.js';
import { OCI_MANIFEST } from './media-types.js';
import type { RegistryClient } from './registry-client.js';

export const COSIGN_SIGNATURE_ANNOTATION = 'dev.cosignproject.cosign/signature';
const PAYLOAD_LIMIT = 64 * 1024;
const ACCEPT = `${OCI_MANIFEST}, application/vnd.docker.distribution.manifest.v2+json`;

const layerSchema = z.object({
  mediaType: z.string(),
  digest: z.string(),
  size: z.number().int().min(0),
  annotations: z.record(z.string(), z.string()).optional(),
});
const sigManifest = z.object({ schemaVersion: z.literal(2), layers: z.array(layerSchema) });
const payloadSchema = z.object({
  critical: z.object({
    type: z.string(),
    image: z.object({ 'docker-manifest-digest': z.string() }),
  }),
});

/** The cosign public keys of a Secret: every key ending in `.pub` (cosign.pub, as Flux reads them). */
export function cosignKeysFromSecretData(data: Record<string, string> | undefined, where: string): KeyObject[] {
  const keys: KeyObject[] = [];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(data ?? {})) {
    if (!name.endsWith('.pub')) continue;
    try {
      keys.push(createPublicKey(Buffer.from(value, 'base64').toString('utf8')));
    } catch {
      problems.push(`${name} is not a PEM public key`);
    }
  }
  if (!problems.length && !keys.length) problems.push('no key ending in .pub (a cosign public key, PEM)');
  if (problems.length) throw new SourceError('VerifyKeysInvalid', `${where}: ${problems.join('; ')}`);
  return keys;
}

/** Resolves when a trusted key signed `digest`; otherwise a SourceError naming the digest. */
export async function verifyCosign(client: RegistryClient, name: string, digest: string, keys: KeyObject[]) {
  const tag = `${digest.replace(':', '-')}.sig`;
  let manifest: { bytes: Uint8Array };
  try {
    manifest = await client.getManifest(tag, ACCEPT);
  } catch (e) {
    if (e instanceof SourceError && e.code === 'RefNotFound') {
      throw new SourceError('ArtifactUnsigned', `${name}@${digest}: no cosign signature (no tag ${tag}); refused`);
    }
    throw e;
  }
  const parsed = sigManifest.safeParse(JSON.parse(new TextDecoder().decode(manifest.bytes)));
  if (!parsed.success) throw new SourceError('ArtifactInvalid', `${name}:${tag}: not a cosign signature manifest`);
  const reasons: string[] = [];
  for (const layer of parsed.data.layers) {
    const signature = layer.annotations?.[COSIGN_SIGNATURE_ANNOTATION];
    if (!signature || layer.size > PAYLOAD_LIMIT) continue;
    const { mediaType, digest: at, size } = layer;
    const payload = await client.getBlob({ mediaType, digest: at, size }, `the cosign payload ${layer.digest}`);
    const sig = Buffer.from(signature, 'base64');
    if (!keys.some((k) => verifySafely(payload, sig, k))) {
      reasons.push('a signature made by no trusted key');
      continue;
    }
    const claim = payloadSchema.safeParse(safeJson(payload));
    const signed = claim.success ? claim.data.critical.image['docker-manifest-digest'] : undefined;
    if (signed !== digest) {
      reasons.push(`a trusted signature over ${signed ?? 'an unreadable payload'}, not this digest`);
      continue;
    }
    return;
  }
  throw new SourceError(
    'ArtifactSignatureInvalid',
    `${name}@${digest}: no cosign signature by a trusted key (found ${reasons.join(', ') || 'no signature layer'}); refused`,
  );
}

function verifySafely(payload: Uint8Array, sig: Buffer, key: KeyObject): boolean {
  try {
    return verify('sha256', payload, key, sig);
  } catch {
    return false;
  }
}

function safeJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}
