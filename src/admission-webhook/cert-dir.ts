// A serving certificate someone else issues (cert-manager's Certificate, mounted from its Secret):
// tls.crt and tls.key read from a folder, read again each round so a renewal is served at once.
// cert-manager's CA injector keeps the configuration's caBundle.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyPairPem } from './certs.js';
import { WebhookError } from './errors.js';

export function readCertDir(dir: string): KeyPairPem {
  try {
    return { cert: readFileSync(join(dir, 'tls.crt'), 'utf8'), key: readFileSync(join(dir, 'tls.key'), 'utf8') };
  } catch (e) {
    throw new WebhookError(
      'CertFilesUnreadable',
      `--admission-cert-dir ${dir}: cannot read tls.crt and tls.key: ${(e as Error).message}`,
    );
  }
}
