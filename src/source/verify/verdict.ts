/**
 * The closed set of reasons a commit or tag is refused. `signer` names who signed as far as it can
 * be told without trusting the signature (an OpenPGP fingerprint or key id, an SSH key fingerprint
 * and its principals) or "unsigned"; it never holds key material.
 */
export type RefusalCode =
  | 'Unsigned'
  | 'UntrustedSigner'
  | 'BadSignature'
  | 'ExpiredKey'
  | 'RevokedKey'
  | 'UnsupportedSignature'
  | 'HistoryTooLong';

export type Verdict = { ok: true; signer: string } | { ok: false; code: RefusalCode; signer: string; detail: string };
