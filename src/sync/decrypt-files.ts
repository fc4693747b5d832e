import { parseAllDocuments, stringify } from 'yaml';
import type { ValidationError } from '../api/index.js';
import { decryptSopsDocument, isSopsDocument, SopsError } from '../source/sops/sops-document.js';
import type { SopsKeys } from '../source/index.js';

export type DecryptOutcome =
  | { ok: true; files: Array<{ path: string; text: string }> }
  | { ok: false; errors: ValidationError[] };

const mentionsSops = (text: string): boolean => /(^|\n)\s*"?sops"?\s*:/.test(text);

/**
 * The commit's SOPS-encrypted files decrypted in memory, just before validation and apply; the
 * plaintext is never written anywhere by FlowOps. A file that cannot be decrypted rejects the commit
 * (file and reason, never a value); so does a SOPS file in a source without spec.decryption, rather
 * than applying ciphertext.
 */
export async function decryptFiles(
  files: ReadonlyArray<{ path: string; text: string }>,
  keys: SopsKeys | undefined,
): Promise<DecryptOutcome> {
  const errors: ValidationError[] = [];
  const out: Array<{ path: string; text: string }> = [];
  for (const file of files) {
    if (!mentionsSops(file.text)) {
      out.push(file);
      continue;
    }
    const docs = parseAllDocuments(file.text);
    const values = Array.isArray(docs) ? docs.map((d) => d.toJS() as unknown) : [];
    if (!values.some(isSopsDocument)) {
      out.push(file);
      continue;
    }
    const fail = (message: string): void =>
      void errors.push({ file: file.path, line: 0, column: 0, field: '', message });
    if (!keys) {
      fail('encrypted with SOPS, but the FlowSource has no spec.decryption to decrypt it');
      continue;
    }
    if (values.length !== 1) {
      fail('a SOPS file with more than one YAML document is not supported (encrypt one object per file)');
      continue;
    }
    try {
      const plain = await decryptSopsDocument(values[0] as Record<string, never>, keys);
      out.push({ path: file.path, text: stringify(plain) });
    } catch (e) {
      if (!(e instanceof SopsError)) throw e;
      fail(`cannot be decrypted: ${e.message}`);
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, files: out };
}
