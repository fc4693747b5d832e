import forge from 'node-forge';
import { mapAt } from './lookup.js';
import { admissionForbidden } from './forbidden.js';
import type { BuiltinPlugin, PluginAttributes } from './types.js';
import { ApiError } from '../../http/status.js';

/**
 * CertificateSubjectRestriction (plugin/pkg/admission/certificates/subjectrestriction/admission.go):
 * a CertificateSigningRequest for the kubernetes.io/kube-apiserver-client signer may not ask for the
 * system:masters group (an O= of its subject). The subject is read from the request's DER without
 * its public key, so RSA, ECDSA and Ed25519 requests are read alike.
 */
const SIGNER = 'kubernetes.io/kube-apiserver-client';
const ORGANIZATION = '2.5.4.10';

export class CertificateSubjectRestrictionPlugin implements BuiltinPlugin {
  readonly name = 'CertificateSubjectRestriction';

  validate(a: PluginAttributes): void {
    if (a.t.group !== 'certificates.k8s.io' || a.t.kind !== 'CertificateSigningRequest' || a.subresource) return;
    if (a.operation !== 'CREATE' && a.operation !== 'UPDATE') return;
    const spec = mapAt(a.object, 'spec');
    if (spec.signerName !== SIGNER || typeof spec.request !== 'string') return;
    let groups: string[];
    try {
      groups = organizations(Buffer.from(spec.request, 'base64').toString('utf8'));
    } catch (e) {
      throw admissionForbidden(a, `failed to parse CSR: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (groups.includes('system:masters')) {
      throw admissionForbidden(a, `use of ${SIGNER} signer with system:masters group is not allowed`);
    }
  }
}

/** The O= values of a PEM certification request's subject. */
function organizations(pem: string): string[] {
  const block = forge.pem.decode(pem).find((b) => b.type === 'CERTIFICATE REQUEST');
  if (!block) throw new ApiError(400, 'BadRequest', 'PEM block type must be CERTIFICATE REQUEST');
  const csr = forge.asn1.fromDer(block.body);
  const info = child(csr, 0);
  const subject = child(info, 1);
  const out: string[] = [];
  for (const rdn of list(subject)) {
    for (const attr of list(rdn)) {
      const [oid, value] = list(attr);
      if (oid && value && forge.asn1.derToOid(String(oid.value)) === ORGANIZATION) out.push(String(value.value));
    }
  }
  return out;
}

function list(node: forge.asn1.Asn1): forge.asn1.Asn1[] {
  return Array.isArray(node.value) ? node.value : [];
}

function child(node: forge.asn1.Asn1, i: number): forge.asn1.Asn1 {
  const c = list(node)[i];
  if (!c) throw new ApiError(400, 'BadRequest', 'malformed certification request');
  return c;
}
