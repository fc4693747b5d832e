import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Signing keys made by the real tools: gpg (its own GNUPGHOME, no passphrase) and ssh-keygen. A
 * key's `configure(git)` sets a test repository up so that `git commit` signs with it, as a user
 * would with user.signingkey / gpg.format.
 */
export interface SigningKey {
  /** What goes in the trusted-keys Secret: an armored OpenPGP public key, or an allowed-signers line. */
  trusted: string;
  /** The part of `trusted` that is key material (asserted never to reach logs, status or Events). */
  material: string;
  /** The private key file's content, for the same assertion. */
  secret: string;
  /** OpenPGP only: the key's GNUPGHOME, fingerprint and whole armored private key (for sops --pgp). */
  gnupgHome?: string;
  fingerprint?: string;
  privateKey?: string;
  /** OpenPGP only: revokes the key with the revocation certificate gpg made, and returns the revoked public key. */
  revoke?(): string;
  /** The git config that makes `git commit` sign with this key. */
  config: Array<[string, string]>;
  configure(git: (...args: string[]) => string): void;
}

function signingKey(k: Omit<SigningKey, 'configure'>): SigningKey {
  return {
    ...k,
    configure: (git) => {
      for (const [key, value] of k.config) git('config', key, value);
    },
  };
}

export interface Keyring {
  /** An OpenPGP key; `fakedTime` (YYYYMMDDTHHMMSS) makes gpg create and sign as of that time. */
  gpgKey(name: string, opts?: { expire?: string; fakedTime?: string; encrypt?: boolean }): SigningKey;
  sshKey(principal: string, type?: 'ed25519' | 'ecdsa' | 'rsa'): SigningKey;
  stop(): void;
}

export function keyring(): Keyring {
  const root = mkdtempSync(join(tmpdir(), 'flowops-keys-'));
  const homes: string[] = [];
  let n = 0;
  return {
    gpgKey(name, opts = {}) {
      const home = join(root, `gnupg${n++}`);
      execFileSync('mkdir', ['-m', '700', home]);
      homes.push(home);
      const faked = opts.fakedTime ? ['--faked-system-time', opts.fakedTime] : [];
      const gpg = (...args: string[]): string =>
        execFileSync('gpg', ['--homedir', home, '--batch', '--quiet', ...faked, ...args], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      const uid = `${name} <${name.toLowerCase()}@example.com>`;
      gpg('--passphrase', '', '--quick-gen-key', uid, 'ed25519', 'sign', opts.expire ?? '1y');
      const fpr = /^fpr:+([0-9A-F]{40}):/m.exec(gpg('--with-colons', '--list-keys', uid))?.[1] ?? '';
      // An encryption subkey, for sops --pgp.
      if (opts.encrypt) gpg('--passphrase', '', '--quick-add-key', fpr, 'cv25519', 'encr', opts.expire ?? '1y');
      const armored = gpg('--armor', '--export', fpr);
      const secret = gpg('--armor', '--pinentry-mode', 'loopback', '--passphrase', '', '--export-secret-keys', fpr);
      // git runs gpg.program with its own arguments: the wrapper adds this key's home (and time).
      const program = join(root, `gpg-${fpr}.sh`);
      writeFileSync(program, `#!/bin/sh\nexec gpg --homedir '${home}' ${faked.join(' ')} "$@"\n`);
      chmodSync(program, 0o755);
      const revoke = (): string => {
        // gpg writes the certificate with a ':' before its armor line so that it is not imported by accident.
        const stored = readFileSync(join(home, 'openpgp-revocs.d', `${fpr}.rev`), 'utf8');
        const cert = stored.replace(/^:-----BEGIN/m, '-----BEGIN');
        const file = join(home, 'revoke.asc');
        writeFileSync(file, cert);
        gpg('--import', file);
        return gpg('--armor', '--export', fpr);
      };
      return signingKey({
        revoke,
        gnupgHome: home,
        fingerprint: fpr,
        privateKey: secret,
        trusted: armored,
        material: armored.split('\n').filter((l) => l.length > 40)[1] ?? armored,
        secret: secret.split('\n').filter((l) => l.length > 40)[1] ?? secret,
        config: [
          ['gpg.format', 'openpgp'],
          ['gpg.program', program],
          ['user.signingkey', fpr],
          ['commit.gpgsign', 'true'],
        ],
      });
    },
    sshKey(principal, type = 'ed25519') {
      const file = join(root, `ssh${n++}`);
      execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-C', principal, '-f', file]);
      const pub = readFileSync(`${file}.pub`, 'utf8').trim();
      const [keyType, b64] = pub.split(' ');
      return signingKey({
        trusted: `${principal} namespaces="git" ${keyType} ${b64}`,
        material: b64 ?? pub,
        secret: readFileSync(file, 'utf8').split('\n')[1] ?? '',
        config: [
          ['gpg.format', 'ssh'],
          ['user.signingkey', file],
          ['commit.gpgsign', 'true'],
        ],
      });
    },
    stop() {
      for (const home of homes)
        execFileSync('gpgconf', ['--homedir', home, '--kill', 'gpg-agent'], { stdio: 'ignore' });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Stops signing: the next `git commit` is unsigned. */
export function unsigned(git: (...args: string[]) => string): void {
  git('config', 'commit.gpgsign', 'false');
}
