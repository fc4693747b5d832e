/**
 * Verifies an SSHSIG signature (openssh PROTOCOL.sshsig), what `git commit -S` writes with
 * gpg.format=ssh: the armor and its length-prefixed fields are read here (ssh-wire.ts says why),
 * the signature itself is checked by node:crypto (Ed25519, ECDSA, RSA PKCS#1 v1.5).
 */
import { createHash, constants, verify } from 'node:crypto';
import {
  ecdsaP1363,
  parseSshPublicKey,
  sshFingerprint,
  WireReader,
  wireString,
  type SshPublicKey,
} from './ssh-wire.js';

const MAGIC = Buffer.from('SSHSIG');
const BEGIN = '-----BEGIN SSH SIGNATURE-----';
const END = '-----END SSH SIGNATURE-----';

export interface SshSignature {
  publicKey: SshPublicKey;
  fingerprint: string;
  namespace: string;
  hashAlgorithm: string;
  sigFormat: string;
  sigBlob: Buffer;
  reserved: Buffer;
}

export const isSshSignature = (armored: string): boolean => armored.trimStart().startsWith(BEGIN);

/** Reads the armor; throws RangeError naming what is malformed. */
export function parseSshSignature(armored: string): SshSignature {
  const body = armored.trim();
  if (!body.startsWith(BEGIN) || !body.endsWith(END)) throw new RangeError('not an SSH signature armor');
  const blob = Buffer.from(body.slice(BEGIN.length, -END.length).replace(/\s+/g, ''), 'base64');
  const r = new WireReader(blob);
  if (!r.bytes(6).equals(MAGIC)) throw new RangeError('SSH signature without the SSHSIG preamble');
  const version = r.uint32();
  if (version !== 1) throw new RangeError(`SSH signature version ${version} (expected 1)`);
  const keyBlob = r.string();
  const namespace = r.text();
  const reserved = r.string();
  const hashAlgorithm = r.text();
  const sig = new WireReader(r.string());
  const sigFormat = sig.text();
  const sigBlob = sig.string();
  return {
    publicKey: parseSshPublicKey(keyBlob),
    fingerprint: sshFingerprint(keyBlob),
    namespace,
    hashAlgorithm,
    sigFormat,
    sigBlob,
    reserved,
  };
}

/** Whether `sig` is a valid signature over `message` by the key it names, in the given namespace. */
export function verifySshSignature(sig: SshSignature, message: Uint8Array, namespace: string): boolean {
  if (sig.namespace !== namespace) return false;
  if (sig.hashAlgorithm !== 'sha256' && sig.hashAlgorithm !== 'sha512') return false;
  const digest = createHash(sig.hashAlgorithm).update(message).digest();
  const signed = Buffer.concat([
    MAGIC,
    wireString(sig.namespace),
    wireString(sig.reserved),
    wireString(sig.hashAlgorithm),
    wireString(digest),
  ]);
  const { publicKey: pk } = sig;
  if (pk.type === 'ssh-ed25519') return sig.sigFormat === 'ssh-ed25519' && verify(null, signed, pk.key, sig.sigBlob);
  if (pk.ecdsaHash && pk.curveBytes) {
    if (sig.sigFormat !== pk.type) return false;
    return verify(
      pk.ecdsaHash,
      signed,
      { key: pk.key, dsaEncoding: 'ieee-p1363' },
      ecdsaP1363(sig.sigBlob, pk.curveBytes),
    );
  }
  // ssh-rsa (SHA-1) signatures are refused, as ssh-keygen -Y verify refuses them.
  const rsaHash = sig.sigFormat === 'rsa-sha2-512' ? 'sha512' : sig.sigFormat === 'rsa-sha2-256' ? 'sha256' : undefined;
  return (
    pk.type === 'ssh-rsa' &&
    rsaHash !== undefined &&
    verify(rsaHash, signed, { key: pk.key, padding: constants.RSA_PKCS1_PADDING }, sig.sigBlob)
  );
}
