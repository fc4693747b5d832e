import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ViewApiSetupError } from './errors.js';

const run = promisify(execFile);

export interface KeyFiles {
  keyFile: string;
  certFile: string;
}

/**
 * Writes `apiserver.key` (2048-bit RSA) and `apiserver.crt` (self-signed, 1 year, the hostnames
 * as SANs), as `dctl generate-keys` does. Node's crypto can make the key pair but not an X.509
 * certificate, so this runs the `openssl` CLI; without it there is no certificate, and the error
 * says so instead of pretending.
 */
export async function generateKeys(
  dir: string,
  hostnames: string[] = ['localhost'],
  openssl = process.env.FLOWOPS_OPENSSL ?? 'openssl',
): Promise<KeyFiles> {
  mkdirSync(dir, { recursive: true });
  const keyFile = join(dir, 'apiserver.key');
  const certFile = join(dir, 'apiserver.crt');
  const hosts = hostnames.length ? hostnames : ['localhost'];
  const san = hosts.map((h) => (isIP(h) ? `IP:${h}` : `DNS:${h}`)).join(',');
  try {
    await run(openssl, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-days',
      '365',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-subj',
      `/CN=${hosts[0]}`,
      '-addext',
      `subjectAltName=${san}`,
    ]);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT')
      throw new ViewApiSetupError(
        'generating a self-signed certificate needs the openssl CLI, which is not installed; provide a key and certificate instead',
      );
    throw new ViewApiSetupError(`openssl failed: ${e.stderr?.trim() || e.message}`);
  }
  return { keyFile, certFile };
}
