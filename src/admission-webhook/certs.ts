// The webhook's own PKI: a self-signed CA and a serving certificate it signs. RSA keys come from
// node:crypto (fast, native); node-forge only builds and signs the X.509 structures.
import { generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import forge from 'node-forge';

export interface KeyPairPem {
  cert: string;
  key: string;
}

export interface ServingPki {
  ca: KeyPairPem;
  serving: KeyPairPem;
}

function rsaKeys(): { publicKey: forge.pki.rsa.PublicKey; privateKey: forge.pki.rsa.PrivateKey; pem: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pem);
  return { publicKey: forge.pki.rsa.setPublicKey(forgeKey.n, forgeKey.e), privateKey: forgeKey, pem };
}

function newCert(publicKey: forge.pki.rsa.PublicKey, notBefore: Date, notAfter: Date): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // Positive (high bit clear) 128-bit serial, as RFC 5280 asks.
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  cert.serialNumber = serial.toString('hex');
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  return cert;
}

/**
 * A CA and a serving certificate for `hosts` (DNS names and IP addresses), both valid from a
 * minute ago (clock skew) for `lifetimeMs`.
 */
export function generateServingPki(hosts: readonly string[], lifetimeMs: number, now = Date.now()): ServingPki {
  const notBefore = new Date(now - 60_000);
  const notAfter = new Date(now + lifetimeMs);
  const caKeys = rsaKeys();
  const ca = newCert(caKeys.publicKey, notBefore, notAfter);
  // PrintableString characters only (no '@'): Go's x509 refuses a certificate with others.
  const caName = [{ name: 'commonName', value: `flowops-webhook-ca-${Math.floor(now / 1000)}` }];
  ca.setSubject(caName);
  ca.setIssuer(caName);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());

  const leafKeys = rsaKeys();
  const leaf = newCert(leafKeys.publicKey, notBefore, notAfter);
  leaf.setSubject([{ name: 'commonName', value: hosts[0] ?? 'flowops-webhook' }]);
  leaf.setIssuer(caName);
  const altNames = hosts.map((h) => (/^[\d.]+$|:/.test(h) ? { type: 7, ip: h } : { type: 2, value: h }));
  leaf.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames },
  ]);
  leaf.sign(caKeys.privateKey, forge.md.sha256.create());
  return {
    ca: { cert: forge.pki.certificateToPem(ca), key: caKeys.pem },
    serving: { cert: forge.pki.certificateToPem(leaf), key: leafKeys.pem },
  };
}

/** When a PEM certificate stops being valid, in ms since the epoch (NaN when it cannot be read). */
export function notAfterOf(certPem: string): number {
  try {
    return Date.parse(new X509Certificate(certPem).validTo);
  } catch {
    return Number.NaN;
  }
}

/** The certificates of a PEM bundle, one PEM block each. */
export function splitPemBundle(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)?.map((c) => `${c}\n`) ?? [];
}
