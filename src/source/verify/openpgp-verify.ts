import { createMessage, readSignature, verify, type Key } from 'openpgp';
import type { Verdict } from './verdict.js';

/**
 * A detached OpenPGP signature (what git writes with gpg) checked by OpenPGP.js against the trusted
 * keys. OpenPGP.js checks the key at the signature's creation time; a key that has expired or been
 * revoked since is refused here too, as the issue asks: a key no longer valid vouches for nothing.
 */
export async function verifyOpenPgp(
  payload: Uint8Array,
  armored: string,
  trusted: Key[],
  now = new Date(),
): Promise<Verdict> {
  let signature: Awaited<ReturnType<typeof readSignature>>;
  try {
    signature = await readSignature({ armoredSignature: armored });
  } catch {
    return {
      ok: false,
      code: 'BadSignature',
      signer: 'unreadable OpenPGP signature',
      detail: 'the signature block cannot be read',
    };
  }
  const packet = signature.packets[0];
  const issuer = packet?.issuerFingerprint
    ? hex(packet.issuerFingerprint)
    : signature.getSigningKeyIDs()[0]?.toHex().toUpperCase();
  const key = trusted.find((k) => signature.getSigningKeyIDs().some((id) => k.getKeys(id).length > 0));
  if (!key)
    return {
      ok: false,
      code: 'UntrustedSigner',
      signer: `OpenPGP key ${issuer ?? 'unknown'}`,
      detail: 'the key is not in the trusted keys',
    };
  const signer = `OpenPGP key ${key.getFingerprint().toUpperCase()}${userOf(key)}`;
  if (await key.isRevoked(undefined, undefined, now).catch(() => false))
    return { ok: false, code: 'RevokedKey', signer, detail: 'the key is revoked' };
  const expires = await key.getExpirationTime().catch(() => null);
  if (expires instanceof Date && expires.getTime() <= now.getTime()) {
    return { ok: false, code: 'ExpiredKey', signer, detail: `the key expired on ${expires.toISOString()}` };
  }
  try {
    const message = await createMessage({ binary: payload });
    const result = await verify({
      message,
      signature,
      verificationKeys: [key],
      expectSigned: true,
      format: 'binary',
      date: now,
    });
    for (const s of result.signatures) await s.verified;
    return { ok: true, signer };
  } catch (e) {
    const why = e instanceof Error ? e.message : '';
    if (/expired/i.test(why))
      return { ok: false, code: 'ExpiredKey', signer, detail: 'the key had expired when it signed' };
    if (/revoked/i.test(why)) return { ok: false, code: 'RevokedKey', signer, detail: 'the key is revoked' };
    return {
      ok: false,
      code: 'BadSignature',
      signer,
      detail: 'the signature does not match the commit (content changed after signing?)',
    };
  }
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();

function userOf(key: Key): string {
  const id = key.getUserIDs()[0];
  return id ? ` (${id})` : '';
}
