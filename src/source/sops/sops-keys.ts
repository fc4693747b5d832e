import { readPrivateKeys, type PrivateKey } from 'openpgp';

/**
 * The keys spec.decryption.secretRef names, as Flux's kustomize-controller reads them: every key
 * ending in `.agekey` holds age identities (AGE-SECRET-KEY-1…, one a line), every key ending in
 * `.asc` armored OpenPGP private keys (without a passphrase). Problems are said per Secret key,
 * never with the key.
 */
export interface SopsKeys {
  age: string[];
  openpgp: PrivateKey[];
}

export type SopsKeysResult = { ok: true; keys: SopsKeys } | { ok: false; problems: string[] };

export async function sopsKeysFromSecretData(data: Record<string, string> | undefined): Promise<SopsKeysResult> {
  const keys: SopsKeys = { age: [], openpgp: [] };
  const problems: string[] = [];
  for (const [name, value] of Object.entries(data ?? {})) {
    const text = Buffer.from(value, 'base64').toString('utf8');
    if (name.endsWith('.agekey')) {
      const ids = text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'));
      if (!ids.length || ids.some((l) => !l.startsWith('AGE-SECRET-KEY-1'))) {
        problems.push(`${name}: expected age identities (AGE-SECRET-KEY-1…), one a line`);
      } else keys.age.push(...ids);
    } else if (name.endsWith('.asc')) {
      try {
        const read = await readPrivateKeys({ armoredKeys: text });
        if (read.some((k) => !k.isDecrypted())) problems.push(`${name}: the OpenPGP private key has a passphrase`);
        else keys.openpgp.push(...read);
      } catch {
        problems.push(`${name}: not an armored OpenPGP private key block`);
      }
    }
  }
  if (!problems.length && !keys.age.length && !keys.openpgp.length) {
    problems.push(
      'no decryption keys: expected keys ending in .agekey (age identities) or .asc (OpenPGP private keys)',
    );
  }
  return problems.length ? { ok: false, problems } : { ok: true, keys };
}
