import { readKeys, type Key } from 'openpgp';
import { ChartError } from './errors.js';

/**
 * The OpenPGP public keys chart.verify.secretRef names, read as a FlowSource's spec.verify reads
 * its OpenPGP keys (src/source/verify/trusted-keys.ts): every Secret key ending in `.asc` holds
 * armored public keys (`gpg --export --armor`). What is wrong is said per Secret key, never with
 * the key material itself.
 */
export async function keyringFromSecret(data: Map<string, string>, where: string): Promise<Key[]> {
  const keys: Key[] = [];
  const problems: string[] = [];
  for (const [name, text] of data) {
    if (!name.endsWith('.asc')) continue;
    try {
      const read = await readKeys({ armoredKeys: text });
      // A private key here is a mistake that must not be used, nor repeated anywhere.
      if (read.some((k) => k.isPrivate())) problems.push(`${name} holds a private key; put only public keys in it`);
      else keys.push(...read);
    } catch {
      problems.push(`${name} is not an armored OpenPGP public key block`);
    }
  }
  if (!problems.length && !keys.length) problems.push('no key ending in .asc (armored OpenPGP public keys)');
  if (problems.length) throw new ChartError('ChartVerifyKeysInvalid', `${where}: ${problems.join('; ')}`);
  return keys;
}
