import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { JsonObject, JsonValue } from '../registry/types.js';

const run = promisify(execFile);

/** The embedded CA's files, as `ensureServerPki` keeps them (`ca.crt`, `ca.key`). */
export interface CsrSigner {
  caCertFile: string;
  caKeyFile: string;
  openssl?: string;
}

/**
 * The built-in signers kube-controller-manager's csrsigning controller runs, and what each certificate may
 * be used for (pkg/controller/certificates/signer). The embedded server signs for them itself on approval,
 * with its own CA, since `flowops up` has no controller-manager holding that key.
 */
const BUILTIN_SIGNERS: Record<string, string> = {
  'kubernetes.io/kube-apiserver-client': 'clientAuth',
  'kubernetes.io/kube-apiserver-client-kubelet': 'clientAuth',
  'kubernetes.io/kubelet-serving': 'serverAuth',
};

/** kube-controller-manager's --cluster-signing-duration default (a year); spec.expirationSeconds shortens it. */
const DEFAULT_SECONDS = 365 * 24 * 3600;

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether the CSR is approved, not denied or failed, for a built-in signer, and has no certificate yet. */
export function wantsSigning(csr: JsonObject): boolean {
  const spec = isObject(csr.spec) ? csr.spec : {};
  const status = isObject(csr.status) ? csr.status : {};
  if (typeof spec.signerName !== 'string' || !(spec.signerName in BUILTIN_SIGNERS) || status.certificate) return false;
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObject) : [];
  const holds = (type: string): boolean => conditions.some((c) => c.type === type && c.status !== 'False');
  return holds('Approved') && !holds('Denied') && !holds('Failed');
}

/**
 * Signs the CSR's PKCS#10 request (spec.request, PEM, base64 in JSON) with the CA through the openssl CLI, as
 * the rest of the embedded PKI is made: the subject and the requested extensions (SANs) are kept, the usage
 * is the signer's. Returns the PEM certificate, or throws with openssl's own message.
 */
export async function signCsr(signer: CsrSigner, csr: JsonObject): Promise<string> {
  const spec = isObject(csr.spec) ? csr.spec : {};
  const usage = BUILTIN_SIGNERS[String(spec.signerName)] ?? 'clientAuth';
  const requested = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : DEFAULT_SECONDS;
  const days = Math.max(1, Math.ceil(Math.min(requested, DEFAULT_SECONDS) / 86_400));
  const dir = mkdtempSync(join(tmpdir(), 'flowops-csr-'));
  try {
    writeFileSync(join(dir, 'req.pem'), Buffer.from(String(spec.request ?? ''), 'base64'));
    const openssl = signer.openssl ?? process.env.FLOWOPS_OPENSSL ?? 'openssl';
    // Only the request's subjectAltName is taken from it: a requested CA:TRUE or usage never reaches the certificate.
    const sans = await requestedSans(openssl, join(dir, 'req.pem'));
    const ext = `basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=${usage}\n`;
    writeFileSync(join(dir, 'ext.cnf'), sans ? `${ext}subjectAltName=${sans}\n` : ext);
    const args = ['x509', '-req', '-in', join(dir, 'req.pem'), '-CA', signer.caCertFile, '-CAkey', signer.caKeyFile];
    args.push('-set_serial', `0x${Date.now().toString(16)}`, '-days', String(days), '-sha256');
    args.push('-extfile', join(dir, 'ext.cnf'));
    const { stdout } = await run(openssl, args, { encoding: 'utf8' });
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The request's subjectAltName in openssl config form (`DNS:a,IP:1.2.3.4`), or '' when it has none. */
async function requestedSans(openssl: string, file: string): Promise<string> {
  const { stdout } = await run(openssl, ['req', '-in', file, '-noout', '-text'], { encoding: 'utf8' });
  const lines = stdout.split('\n');
  const at = lines.findIndex((l) => l.includes('X509v3 Subject Alternative Name'));
  const line = at >= 0 ? (lines[at + 1] ?? '').trim() : '';
  const entries = line ? line.split(/,\s*/) : [];
  const allowed = entries.map((e) => e.replace(/^IP Address:/, 'IP:')).filter((e) => /^(DNS|IP):[\w.:*-]+$/.test(e));
  return allowed.join(',');
}
