import { readKeys, type Key } from 'openpgp';
import { parseAllowedSigners, type AllowedSigner } from './allowed-signers.js';

/**
 * The keys a FlowSource trusts, read from the data of the Secret spec.verify.secretRef names:
 * every key ending in `.asc` holds armored OpenPGP public keys (one or more), the key
 * `allowed_signers` holds SSH allowed-signers lines. What is wrong is said per Secret key, and
 * never with the key material itself.
 */
export interface TrustedKeys {
  openpgp: Key[];
  ssh: AllowedSigner[];
}

export const ALLOWED_SIGNERS_KEY = 'allowed_signers';

export type TrustedKeysResult = { ok: true; keys: TrustedKeys } | { ok: false; problems: string[] };

/** `data` as a Secret holds it: base64 values. */
export async function trustedKeysFromSecretData(data: Record<string, string> | undefined): Promise<TrustedKeysResult> {
  const keys: TrustedKeys = { openpgp: [], ssh: [] };
  const problems: string[] = [];
  for (const [name, value] of Object.entries(data ?? {})) {
    const text = Buffer.from(value, 'base64').toString('utf8');
    if (name === ALLOWED_SIGNERS_KEY) {
      const parsed = parseAllowedSigners(text);
      keys.ssh.push(...parsed.signers);
      problems.push(...parsed.errors.map((e) => `${name} ${e}`));
    } else if (name.endsWith('.asc')) {
      try {
        const read = await readKeys({ armoredKeys: text });
        // A private key here is a mistake that must not be used, nor repeated anywhere.
        if (read.some((k) => k.isPrivate()))
          problems.push(`${name}: holds a private key; put only public keys in the Secret`);
        else keys.openpgp.push(...read);
      } catch {
        problems.push(`${name}: not an armored OpenPGP public key block`);
      }
    }
  }
  if (!problems.length && !keys.openpgp.length && !keys.ssh.length) {
    problems.push(
      `no trusted keys: expected keys ending in .asc (armored OpenPGP public keys) or "${ALLOWED_SIGNERS_KEY}"`,
    );
  }
  return problems.length ? { ok: false, problems } : { ok: true, keys };
}
