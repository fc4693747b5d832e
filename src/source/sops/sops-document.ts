import { createHash } from 'node:crypto';
import { armor, Decrypter } from 'age-encryption';
import { decrypt as pgpDecrypt, readMessage } from 'openpgp';
import { decryptValue, isEncrypted, macBytes, type SopsLeaf } from './sops-value.js';
import type { SopsKeys } from './sops-keys.js';

/**
 * A document sops encrypted (YAML or JSON parsed to a tree), decrypted in memory: the data key from
 * an age or OpenPGP recipient (age-encryption, OpenPGP.js), each value by the file's rules
 * (unencrypted_suffix, encrypted_suffix, unencrypted_regex, encrypted_regex), and the MAC over
 * every value checked before anything is returned, as `sops --decrypt` does. Errors say what is
 * wrong and never carry a value.
 */
export class SopsError extends Error {
  override readonly name = 'SopsError';
}

interface Metadata {
  age?: Array<{ enc?: string }>;
  pgp?: Array<{ enc?: string; fp?: string }>;
  lastmodified?: string;
  mac?: string;
  unencrypted_suffix?: string;
  encrypted_suffix?: string;
  unencrypted_regex?: string;
  encrypted_regex?: string;
  mac_only_encrypted?: boolean;
}

type Tree = { [key: string]: Node };
type Node = SopsLeaf | Tree | Node[];

const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

export const isSopsDocument = (doc: unknown): boolean =>
  isTree(doc) && isTree(doc.sops) && typeof doc.sops.mac === 'string' && typeof doc.sops.lastmodified === 'string';

export async function decryptSopsDocument(doc: Tree, keys: SopsKeys): Promise<Tree> {
  const meta = doc.sops as Metadata;
  const dataKey = await dataKeyOf(meta, keys);
  const encrypted = rulesOf(meta);
  const hash = createHash('sha512');
  const walk = (node: Node, path: string[], enc: boolean): Node => {
    if (Array.isArray(node)) return node.map((v) => walk(v, path, enc));
    if (isTree(node)) {
      const out: Tree = {};
      for (const [k, v] of Object.entries(node)) out[k] = walk(v, [...path, k], enc && encrypted.keep(k));
      return out;
    }
    const isEnc = enc && encrypted.matched(path);
    let value: SopsLeaf = node;
    if (isEnc && isEncrypted(node)) {
      try {
        value = decryptValue(node, dataKey, `${path.join(':')}:`);
      } catch (e) {
        const why = e instanceof RangeError ? e.message : 'cannot be decrypted (changed after encryption?)';
        throw new SopsError(`${path.join('.')}: ${why}`);
      }
    } else if (isEnc && node !== '' && node !== null)
      throw new SopsError(`${path.join('.')}: expected an encrypted value`);
    if (isEnc || !meta.mac_only_encrypted) hash.update(macBytes(value), 'utf8');
    return value;
  };
  const { sops: _meta, ...body } = doc;
  const plain = walk(body, [], true) as Tree;
  const want = hash.digest('hex').toUpperCase();
  let stored: SopsLeaf;
  try {
    stored = decryptValue(meta.mac ?? '', dataKey, meta.lastmodified ?? '');
  } catch {
    throw new SopsError('the MAC cannot be decrypted: sops.mac or sops.lastmodified was changed');
  }
  if (stored !== want) throw new SopsError('MAC mismatch: the file was changed after sops encrypted it');
  return plain;
}

async function dataKeyOf(meta: Metadata, keys: SopsKeys): Promise<Buffer> {
  if (keys.age.length) {
    for (const { enc } of meta.age ?? []) {
      if (!enc) continue;
      const d = new Decrypter();
      for (const id of keys.age) d.addIdentity(id);
      const key = await d.decrypt(armor.decode(enc)).catch(() => undefined);
      if (key?.length === 32) return Buffer.from(key);
    }
  }
  if (keys.openpgp.length) {
    for (const { enc } of meta.pgp ?? []) {
      if (!enc) continue;
      try {
        const message = await readMessage({ armoredMessage: enc });
        const { data } = await pgpDecrypt({ message, decryptionKeys: keys.openpgp, format: 'binary' });
        if (data.length === 32) return Buffer.from(data);
      } catch {
        // Not one of our keys: try the next recipient.
      }
    }
  }
  const recipients = `${meta.age?.length ?? 0} age and ${meta.pgp?.length ?? 0} OpenPGP recipient(s)`;
  throw new SopsError(`none of the decryption keys opens the data key (the file has ${recipients})`);
}

/**
 * Which values sops encrypted. `keep(key)` says whether a key leaves its subtree encryptable
 * (unencrypted_suffix, unencrypted_regex); `matched(path)` whether a path needs a key that
 * encrypted_suffix or encrypted_regex asks for. Without any rule, sops' default suffix applies.
 */
function rulesOf(meta: Metadata): { keep(key: string): boolean; matched(path: string[]): boolean } {
  const unencSuffix =
    meta.unencrypted_suffix ??
    (meta.encrypted_suffix || meta.encrypted_regex || meta.unencrypted_regex ? undefined : '_unencrypted');
  const unencRegex = meta.unencrypted_regex ? new RegExp(meta.unencrypted_regex) : undefined;
  const encRegex = meta.encrypted_regex ? new RegExp(meta.encrypted_regex) : undefined;
  const encSuffix = meta.encrypted_suffix;
  return {
    keep: (key) => !(unencSuffix && key.endsWith(unencSuffix)) && !unencRegex?.test(key),
    matched: (path) =>
      (!encRegex || path.some((k) => encRegex.test(k))) && (!encSuffix || path.some((k) => k.endsWith(encSuffix))),
  };
}
