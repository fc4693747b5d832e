import {
  createMessage,
  readCleartextMessage,
  readSignature,
  verify,
  type CleartextMessage,
  type Key,
  type KeyID,
  type Signature,
} from 'openpgp';
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
  let signature: Signature;
  try {
    signature = await readSignature({ armoredSignature: armored });
  } catch {
    return unreadable('the signature block cannot be read');
  }
  const message = await createMessage({ binary: payload });
  const packet = signature.packets[0];
  const issuer = packet?.issuerFingerprint ? hex(packet.issuerFingerprint) : undefined;
  return checkSignature(signature.getSigningKeyIDs(), issuer, trusted, now, 'the commit', (key) =>
    verify({ message, signature, verificationKeys: [key], expectSigned: true, format: 'binary', date: now }),
  );
}

/** A clear-signed document (`gpg --clearsign`, a Helm provenance file) and its signed text. */
export type ClearSigned = { verdict: Verdict; text?: string };

/**
 * A clear-signed OpenPGP document checked as a detached signature is: the same key lookup and
 * expiry/revocation rules. The text is returned only when the signature holds, so nothing unsigned
 * is ever read from it.
 */
export async function verifyOpenPgpCleartext(armored: string, trusted: Key[], now = new Date()): Promise<ClearSigned> {
  let message: CleartextMessage;
  try {
    message = await readCleartextMessage({ cleartextMessage: armored });
  } catch {
    return { verdict: unreadable('not an OpenPGP clear-signed document') };
  }
  const verdict = await checkSignature(message.getSigningKeyIDs(), undefined, trusted, now, 'the signed text', (key) =>
    verify({ message, verificationKeys: [key], expectSigned: true, date: now }),
  );
  return verdict.ok ? { verdict, text: message.getText() } : { verdict };
}

const unreadable = (detail: string): Verdict => ({
  ok: false,
  code: 'BadSignature',
  signer: 'unreadable OpenPGP signature',
  detail,
});

/**
 * Which trusted key made the signature (by the key ids it names), whether that key is still valid,
 * and whether the signature holds (`run` verifies with that one key).
 */
async function checkSignature(
  keyIds: KeyID[],
  issuerFingerprint: string | undefined,
  trusted: Key[],
  now: Date,
  over: string,
  run: (key: Key) => Promise<{ signatures: Array<{ verified: Promise<unknown> }> }>,
): Promise<Verdict> {
  const issuer = issuerFingerprint ?? keyIds[0]?.toHex().toUpperCase();
  const key = trusted.find((k) => keyIds.some((id) => k.getKeys(id).length > 0));
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
    const result = await run(key);
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
      detail: `the signature does not match ${over} (content changed after signing?)`,
    };
  }
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();

function userOf(key: Key): string {
  const id = key.getUserIDs()[0];
  return id ? ` (${id})` : '';
}
