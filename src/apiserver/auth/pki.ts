import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ApiServerSetupError } from '../errors.js';

const run = promisify(execFile);
/**
 * ECDSA P-256 keys, as k3s makes its own: a fresh `flowops up` makes four keys, and RSA-2048 ones
 * took 0.6–1.2 s of its start here against a few milliseconds for these. Data directories from
 * before keep their RSA keys (service-account-tokens.ts reads the algorithm from the key).
 */
const NEW_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];

/** What an authenticating embedded server needs, kept in its data directory so restarts keep tokens and trust. */
export interface ServerPki {
  caCert: string;
  serverKey: string;
  serverCert: string;
  /** Signs ServiceAccount tokens (PKCS#8 PEM). */
  serviceAccountKey: string;
  /** The admin kubeconfig's static bearer token (group system:masters). */
  adminToken: string;
  dir: string;
}

/**
 * Makes (once) a CA, a serving certificate for the hosts, a ServiceAccount signing key and an
 * admin token in DIR, as scripts/control-plane/certs.sh does for the real control plane. Node can
 * make keys but not X.509 certificates, so certificates come from the openssl CLI; without it the
 * error says so.
 */
export async function ensureServerPki(
  dir: string,
  hosts: string[],
  openssl = process.env.FLOWOPS_OPENSSL ?? 'openssl',
): Promise<ServerPki> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = (name: string) => join(dir, name);
  if (!existsSync(file('ca.crt'))) {
    await openSsl(openssl, [
      'req',
      '-x509',
      ...NEW_KEY,
      '-nodes',
      '-sha256',
      '-days',
      '3650',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.crt'),
      '-subj',
      '/CN=flowops-ca',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign,digitalSignature',
    ]);
  }
  if (!existsSync(file('apiserver.crt'))) {
    const san = [...new Set(['localhost', '127.0.0.1', ...hosts])]
      .map((h) => (isIP(h) ? `IP:${h}` : `DNS:${h}`))
      .join(',');
    await sign(
      openssl,
      dir,
      'apiserver',
      '/CN=flowops-apiserver',
      `basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${san}\n`,
    );
  }
  if (!existsSync(file('sa.key'))) {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(file('sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  }
  if (!existsSync(file('admin.token')))
    writeFileSync(file('admin.token'), randomBytes(32).toString('base64url'), { mode: 0o600 });
  const read = (name: string) => readFileSync(file(name), 'utf8');
  return {
    caCert: read('ca.crt'),
    serverKey: read('apiserver.key'),
    serverCert: read('apiserver.crt'),
    serviceAccountKey: read('sa.key'),
    adminToken: read('admin.token').trim(),
    dir,
  };
}

/** A client certificate from the CA in DIR: CN the user, each organisation a group (what kube's x509 authenticator reads). */
export async function issueClientCertificate(
  dir: string,
  name: string,
  user: string,
  groups: string[],
  openssl = process.env.FLOWOPS_OPENSSL ?? 'openssl',
): Promise<{ key: string; cert: string }> {
  const subject = `${groups.map((g) => `/O=${g}`).join('')}/CN=${user}`;
  await sign(
    openssl,
    dir,
    name,
    subject,
    'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n',
  );
  return { key: readFileSync(join(dir, `${name}.key`), 'utf8'), cert: readFileSync(join(dir, `${name}.crt`), 'utf8') };
}

async function sign(openssl: string, dir: string, name: string, subject: string, extensions: string): Promise<void> {
  const f = (ext: string) => join(dir, `${name}.${ext}`);
  writeFileSync(f('ext'), extensions);
  try {
    await openSsl(openssl, [
      'req',
      '-new',
      ...NEW_KEY,
      '-nodes',
      '-keyout',
      f('key'),
      '-subj',
      subject,
      '-out',
      f('csr'),
    ]);
    await openSsl(openssl, [
      'x509',
      '-req',
      '-in',
      f('csr'),
      '-CA',
      join(dir, 'ca.crt'),
      '-CAkey',
      join(dir, 'ca.key'),
      '-CAcreateserial',
      '-sha256',
      '-days',
      '3650',
      '-extfile',
      f('ext'),
      '-out',
      f('crt'),
    ]);
  } finally {
    rmSync(f('csr'), { force: true });
    rmSync(f('ext'), { force: true });
  }
}

async function openSsl(openssl: string, args: string[]): Promise<void> {
  try {
    await run(openssl, args);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT')
      throw new ApiServerSetupError(
        'OpensslMissing',
        'the API server serves HTTPS with certificates made by the openssl CLI, which is not installed; install openssl (or run with --no-auth on a single-user machine)',
      );
    throw new ApiServerSetupError('OpensslFailed', `openssl ${args[0]} failed: ${e.stderr?.trim() || e.message}`);
  }
}
