/**
 * git's gpg.ssh.allowedSignersFile format (ssh-keygen(1) "ALLOWED SIGNERS"): one
 * `principals [options] keytype base64-key [comment]` per line. Supported options: namespaces,
 * valid-after, valid-before; cert-authority lines are refused with a message (certificates are
 * not verified here). Parsed here because it is one line of quoted tokens (see ssh-wire.ts).
 */
import { parseSshPublicKey, sshFingerprint } from './ssh-wire.js';

export interface AllowedSigner {
  principals: string[];
  /** The public key blob; a signature is trusted when it names exactly this key. */
  blob: Buffer;
  fingerprint: string;
  namespaces?: string[];
  validAfter?: number;
  validBefore?: number;
}

export interface AllowedSignersParse {
  signers: AllowedSigner[];
  /** `line N: what is wrong`, never the key itself. */
  errors: string[];
}

/** Splits on `sep` outside double quotes; the quotes stay, so a token can be split again. */
function splitOutsideQuotes(text: string, sep: RegExp): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && sep.test(ch)) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

const unquote = (t: string): string => t.replace(/"/g, '');

const isKeyType = (t: string): boolean => /^(ssh-|ecdsa-sha2-|sk-)/.test(t);

/** `YYYYMMDD[HHMM[SS]][Z]`, local time unless Z, as ssh-keygen reads it. */
function sshTime(v: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?(Z)?$/.exec(v);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = m[7] ? Date.UTC(y, mo - 1, d, h, mi, s) : new Date(y, mo - 1, d, h, mi, s).getTime();
  return ms / 1000;
}

function applyOptions(signer: AllowedSigner, options: string): string | undefined {
  for (const opt of splitOutsideQuotes(options, /,/)) {
    const eq = opt.indexOf('=');
    const name = (eq < 0 ? opt : opt.slice(0, eq)).toLowerCase();
    const value = eq < 0 ? '' : unquote(opt.slice(eq + 1));
    if (name === 'cert-authority') return 'cert-authority lines are not supported (list the signing keys themselves)';
    if (name === 'namespaces') signer.namespaces = value.split(',').filter(Boolean);
    else if (name === 'valid-after' || name === 'valid-before') {
      const t = sshTime(value);
      if (t === undefined) return `${name}="${value}" is not a YYYYMMDD[HHMM[SS]][Z] time`;
      if (name === 'valid-after') signer.validAfter = t;
      else signer.validBefore = t;
    } else return `unknown option "${name}" (expected namespaces, valid-after or valid-before)`;
  }
  return undefined;
}

export function parseAllowedSigners(text: string): AllowedSignersParse {
  const signers: AllowedSigner[] = [];
  const errors: string[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const t = splitOutsideQuotes(line, /[ \t]/);
    const principals = t[0] === undefined ? undefined : unquote(t[0]);
    const hasOptions = t[1] !== undefined && !isKeyType(t[1]);
    const type = t[hasOptions ? 2 : 1];
    const b64 = t[hasOptions ? 3 : 2];
    if (!principals || !type || !b64) {
      errors.push(`line ${i + 1}: expected "principals [options] keytype base64-key"`);
      continue;
    }
    try {
      const blob = Buffer.from(b64, 'base64');
      const parsed = parseSshPublicKey(blob);
      if (parsed.type !== type) {
        errors.push(`line ${i + 1}: key type ${type} does not match the key (${parsed.type})`);
        continue;
      }
      const signer: AllowedSigner = { principals: principals.split(','), blob, fingerprint: sshFingerprint(blob) };
      const bad = hasOptions && t[1] ? applyOptions(signer, t[1]) : undefined;
      if (bad) {
        errors.push(`line ${i + 1}: ${bad}`);
        continue;
      }
      signers.push(signer);
    } catch (e) {
      errors.push(`line ${i + 1}: ${e instanceof RangeError ? e.message : 'not a valid SSH public key'}`);
    }
  }
  return { signers, errors };
}
