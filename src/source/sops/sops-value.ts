/**
 * One SOPS-encrypted value, `ENC[AES256_GCM,data:…,iv:…,tag:…,type:…]`, decrypted with node:crypto's
 * AES-256-GCM under the file's data key, the value's tree path as additional data
 * (`key:subkey:`), as sops' aes cipher does; and the bytes sops hashes into the file's MAC.
 */
import { createDecipheriv } from 'node:crypto';

const ENC = /^ENC\[AES256_GCM,data:([^,]*),iv:([^,]+),tag:([^,]+),type:([a-z]+)\]$/;

export type SopsLeaf = string | number | boolean | null;

export const isEncrypted = (v: unknown): v is string => typeof v === 'string' && v.startsWith('ENC[AES256_GCM,');

/** Throws RangeError (malformed) or Error from node:crypto (wrong key, changed value). */
export function decryptValue(value: string, dataKey: Buffer, additionalData: string): SopsLeaf {
  const m = ENC.exec(value);
  if (!m) throw new RangeError('a value is not of the form ENC[AES256_GCM,data:…,iv:…,tag:…,type:…]');
  const [, data = '', iv = '', tag = '', type = ''] = m;
  const decipher = createDecipheriv('aes-256-gcm', dataKey, Buffer.from(iv, 'base64'));
  decipher.setAAD(Buffer.from(additionalData, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  if (type === 'str' || type === 'bytes' || type === 'comment') return plain;
  if (type === 'int') return Number.parseInt(plain, 10);
  if (type === 'float') return Number.parseFloat(plain);
  if (type === 'bool') return plain.toLowerCase() === 'true';
  throw new RangeError(`unknown SOPS value type "${type}"`);
}

/** What sops' ToBytes gives for the MAC: Go's formatting of ints and floats, booleans as True/False. */
export function macBytes(v: SopsLeaf): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (v === null) return '';
  return String(v);
}
