// Part of kube-apiserver's CertificateSigningRequest validation (kubernetes/kubernetes
// pkg/apis/certificates/validation/validation.go): validateCertificateSigningRequest (the request a PEM
// CERTIFICATE REQUEST, usages required, known and unique, core's ValidateSignerName, expirationSeconds at
// least 600) and validateCertificate for status.certificate. The request's signature is not verified here.
import type { JsonObject } from '../registry/types.js';
import { duplicate, invalid, notSupported, required } from '../schema/field-errors.js';
import type { FieldCause } from '../schema/types.js';
import { str } from './checks.js';
import { dns1123LabelErrors } from './dns.js';
import { objectAt } from './pod-spec.js';

const USAGES = (
  'any,cert sign,client auth,code signing,content commitment,crl sign,data encipherment,decipher only,' +
  'digital signature,email protection,encipher only,ipsec end system,ipsec tunnel,ipsec user,key agreement,' +
  'key encipherment,microsoft sgc,netscape sgc,ocsp signing,s/mime,server auth,signing,timestamping'
).split(',');

const pemText = (b64: string): string => Buffer.from(b64, 'base64').toString('latin1');

function requestError(b64: string): string | undefined {
  const text = pemText(b64);
  const m = /-----BEGIN ([A-Z ]+)-----\r?\n[A-Za-z0-9+/=\r\n]+-----END \1-----/.exec(text);
  if (!m) return 'PEM block type must be CERTIFICATE REQUEST';
  return m[1] === 'CERTIFICATE REQUEST' || m[1] === 'NEW CERTIFICATE REQUEST'
    ? undefined
    : 'PEM block type must be CERTIFICATE REQUEST';
}

/** ValidateSignerName: `example.com/signer-name`. */
function signerNameCauses(v: string, path: string): FieldCause[] {
  if (!v) return [required(path)];
  const segments = v.split('/');
  const [domain = '', name = ''] = segments;
  if (segments.length !== 2)
    return [invalid(path, v, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const causes: FieldCause[] = [];
  const labels = domain.split('.');
  for (const lbl of labels) {
    const errs = dns1123LabelErrors(lbl);
    if (!errs.length) continue;
    for (const e of errs) causes.push(invalid(path, domain, `validating label "${lbl}": ${e}`));
    break;
  }
  if (labels.length < 2)
    causes.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  if (name === '') causes.push(invalid(path, name, 'validating label "": must not be empty'));
  return causes;
}

/** validateCertificate: empty, or CERTIFICATE PEM blocks only. */
export function certificateCauses(obj: JsonObject): FieldCause[] {
  const cert = str(objectAt(obj, 'status').certificate);
  if (!cert) return [];
  const text = pemText(cert);
  const blocks = [...text.matchAll(/-----BEGIN ([A-Z ]+)-----/g)].map((m) => m[1]);
  let err: string | undefined;
  if (!blocks.length) err = 'must contain at least one CERTIFICATE PEM block';
  else if (blocks.some((b) => b !== 'CERTIFICATE'))
    err = `only CERTIFICATE PEM blocks are allowed, found "${blocks.find((b) => b !== 'CERTIFICATE') ?? ''}"`;
  return err ? [invalid('status.certificate', '<certificate data>', err)] : [];
}

export function csrCauses(obj: JsonObject): FieldCause[] {
  const spec = objectAt(obj, 'spec');
  const causes: FieldCause[] = [];
  const request = str(spec.request);
  const reqErr = requestError(request);
  if (reqErr) causes.push(invalid('spec.request', request, reqErr));
  const usages = Array.isArray(spec.usages) ? spec.usages : [];
  if (!usages.length) causes.push(required('spec.usages'));
  const seen = new Set<string>();
  usages.forEach((u, i) => {
    const s = str(u);
    if (!USAGES.includes(s)) causes.push(notSupported(`spec.usages[${i}]`, u, USAGES));
    if (seen.has(s)) causes.push(duplicate(`spec.usages[${i}]`, u));
    seen.add(s);
  });
  const signer = str(spec.signerName);
  if (signer === 'kubernetes.io/legacy-unknown')
    causes.push(invalid('spec.signerName', signer, 'the legacy signerName is not allowed via this API version'));
  else causes.push(...signerNameCauses(signer, 'spec.signerName'));
  const exp = spec.expirationSeconds;
  if (typeof exp === 'number' && exp < 600) {
    const detail = 'may not specify a duration less than 600 seconds (10 minutes)';
    causes.push(invalid('spec.expirationSeconds', exp, detail));
  }
  return [...causes, ...certificateCauses(obj)];
}
