/**
 * The few SSH wire encodings (RFC 4251 §5) that an SSHSIG signature and an SSH public key are made
 * of, and the public key as a node:crypto KeyObject. Written here rather than taken from a package
 * because it is a length-prefixed reader of a handful of fields: the maintained SSH packages
 * (ssh2, sshpk) pull in whole protocol stacks for it, and every cryptographic step stays in
 * node:crypto.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';

export class WireReader {
  private at = 0;

  constructor(private readonly buf: Buffer) {}

  done(): boolean {
    return this.at >= this.buf.length;
  }

  bytes(n: number): Buffer {
    if (this.at + n > this.buf.length) throw new RangeError('truncated SSH data');
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  uint32(): number {
    return this.bytes(4).readUInt32BE(0);
  }

  string(): Buffer {
    return this.bytes(this.uint32());
  }

  text(): string {
    return this.string().toString('utf8');
  }
}

export function wireString(data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length, 0);
  return Buffer.concat([len, body]);
}

/** `SHA256:<base64>` as ssh-keygen -l prints it: names a key without revealing anything secret. */
export function sshFingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

export interface SshPublicKey {
  type: string;
  blob: Buffer;
  key: KeyObject;
  /** For ECDSA, the byte length of r and s in an IEEE P1363 signature. */
  curveBytes?: number;
  /** The digest ECDSA signs with; undefined for ed25519 (none) and RSA (named by the signature). */
  ecdsaHash?: string;
}

const CURVES: Record<string, { crv: string; bytes: number; hash: string }> = {
  nistp256: { crv: 'P-256', bytes: 32, hash: 'sha256' },
  nistp384: { crv: 'P-384', bytes: 48, hash: 'sha384' },
  nistp521: { crv: 'P-521', bytes: 66, hash: 'sha512' },
};

const b64url = (b: Buffer): string => b.toString('base64url');
const unsignedInt = (b: Buffer): Buffer => (b[0] === 0 ? b.subarray(1) : b);

/** An SSH public key blob (ssh-ed25519, ecdsa-sha2-nistp*, ssh-rsa) as a KeyObject. */
export function parseSshPublicKey(blob: Buffer): SshPublicKey {
  const r = new WireReader(blob);
  const type = r.text();
  if (type === 'ssh-ed25519') {
    const x = r.string();
    return { type, blob, key: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64url(x) }, format: 'jwk' }) };
  }
  if (type.startsWith('ecdsa-sha2-')) {
    const curve = CURVES[r.text()];
    const q = r.string();
    if (!curve || q[0] !== 4 || q.length !== 1 + 2 * curve.bytes) throw new RangeError(`unsupported ECDSA key ${type}`);
    const x = q.subarray(1, 1 + curve.bytes);
    const y = q.subarray(1 + curve.bytes);
    const key = createPublicKey({ key: { kty: 'EC', crv: curve.crv, x: b64url(x), y: b64url(y) }, format: 'jwk' });
    return { type, blob, key, curveBytes: curve.bytes, ecdsaHash: curve.hash };
  }
  if (type === 'ssh-rsa') {
    const e = unsignedInt(r.string());
    const n = unsignedInt(r.string());
    return { type, blob, key: createPublicKey({ key: { kty: 'RSA', n: b64url(n), e: b64url(e) }, format: 'jwk' }) };
  }
  throw new RangeError(
    `unsupported SSH key type ${type} (supported: ssh-ed25519, ecdsa-sha2-nistp256/384/521, ssh-rsa)`,
  );
}

/** An ECDSA signature's two mpints as the fixed-width r||s node:crypto reads with dsaEncoding ieee-p1363. */
export function ecdsaP1363(sigBlob: Buffer, width: number): Buffer {
  const r = new WireReader(sigBlob);
  const pad = (b: Buffer): Buffer => {
    const v = unsignedInt(b);
    if (v.length > width) throw new RangeError('ECDSA signature value too long');
    return Buffer.concat([Buffer.alloc(width - v.length), v]);
  };
  return Buffer.concat([pad(r.string()), pad(r.string())]);
}
