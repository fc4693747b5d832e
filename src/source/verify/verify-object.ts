import git from 'isomorphic-git';
import type { GitContext } from '../git-context.js';
import { verifyOpenPgp } from './openpgp-verify.js';
import { splitCommit, splitTag, type SignedObject } from './signed-object.js';
import { isSshSignature } from './sshsig.js';
import { verifySsh } from './ssh-verify.js';
import type { TrustedKeys } from './trusted-keys.js';
import type { Verdict } from './verdict.js';

/** Reads one commit or tag object raw (the bytes that were signed) and checks its signature. */
export async function verifyObject(ctx: GitContext, oid: string, keys: TrustedKeys): Promise<Verdict> {
  const obj = await git.readObject({ fs: ctx.fs, gitdir: ctx.gitdir, oid, format: 'content', cache: ctx.cache });
  if (!(obj.object instanceof Uint8Array) || (obj.type !== 'commit' && obj.type !== 'tag')) {
    return { ok: false, code: 'Unsigned', signer: 'unsigned', detail: `${oid} is a ${obj.type}, not a commit or tag` };
  }
  return verifySigned(obj.type === 'commit' ? splitCommit(obj.object) : splitTag(obj.object), keys);
}

export async function verifySigned(signed: SignedObject, keys: TrustedKeys): Promise<Verdict> {
  if (!signed.signature) return { ok: false, code: 'Unsigned', signer: 'unsigned', detail: 'it carries no signature' };
  if (isSshSignature(signed.signature)) return verifySsh(signed.payload, signed.signature, keys.ssh, signed.time);
  if (signed.signature.trimStart().startsWith('-----BEGIN PGP SIGNATURE-----'))
    return verifyOpenPgp(signed.payload, signed.signature, keys.openpgp);
  return {
    ok: false,
    code: 'UnsupportedSignature',
    signer: 'unknown',
    detail: 'the signature is neither OpenPGP nor SSH (X.509 signatures are not verified)',
  };
}
