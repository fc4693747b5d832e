import type { AllowedSigner } from './allowed-signers.js';
import { parseSshSignature, verifySshSignature } from './sshsig.js';
import type { Verdict } from './verdict.js';

// The namespace git signs commits and tags in (gpg-interface.c).
const GIT_NAMESPACE = 'git';

/**
 * An SSH signature checked as `git verify-commit` does with gpg.ssh.allowedSignersFile: the key it
 * names must be on an allowed-signers line whose namespaces (if any) include "git" and whose
 * valid-after/valid-before window holds the object's time, and the signature must verify.
 */
export function verifySsh(
  payload: Uint8Array,
  armored: string,
  allowed: AllowedSigner[],
  time: number | undefined,
): Verdict {
  let sig: ReturnType<typeof parseSshSignature>;
  try {
    sig = parseSshSignature(armored);
  } catch (e) {
    return {
      ok: false,
      code: 'UnsupportedSignature',
      signer: 'unreadable SSH signature',
      detail: e instanceof RangeError ? e.message : 'malformed SSH signature',
    };
  }
  const lines = allowed.filter((a) => a.blob.equals(sig.publicKey.blob));
  if (!lines.length)
    return {
      ok: false,
      code: 'UntrustedSigner',
      signer: `SSH key ${sig.fingerprint}`,
      detail: 'the key is not in allowed_signers',
    };
  const signer = `SSH key ${sig.fingerprint} (${[...new Set(lines.flatMap((l) => l.principals))].join(', ')})`;
  const when = time ?? Date.now() / 1000;
  const usable = lines.filter(
    (l) =>
      (!l.namespaces || l.namespaces.includes(GIT_NAMESPACE)) &&
      (l.validAfter ?? -Infinity) <= when &&
      when <= (l.validBefore ?? Infinity),
  );
  if (!usable.length)
    return {
      ok: false,
      code: 'ExpiredKey',
      signer,
      detail: 'allowed_signers does not allow the key for namespace "git" at the commit time',
    };
  if (!verifySshSignature(sig, payload, GIT_NAMESPACE)) {
    return {
      ok: false,
      code: 'BadSignature',
      signer,
      detail: 'the signature does not match the commit (content changed after signing?)',
    };
  }
  return { ok: true, signer };
}
