import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { SourceError } from '../errors.js';
import type { PackedFile } from './pack.js';

/** Unpacked, an artifact may be at most this big (a zip bomb is refused, not written). */
export const UNPACKED_LIMIT = 512 * 1024 * 1024;

/** A tar path as a safe relative path ("./a/b" → "a/b"), or undefined for one that leaves the folder. */
export function safePath(name: string): string | undefined {
  const segments = name.split('/').filter((s) => s && s !== '.');
  if (name.startsWith('/') || segments.some((s) => s === '..') || !segments.length) return undefined;
  return segments.join('/');
}

/**
 * The regular files of a gzipped tar layer, in memory (an artifact's SOPS files are decrypted from
 * here and never written decrypted). A truncated or corrupt stream, a path that leaves the folder
 * or a link rejects the whole layer: `what` names it in the error.
 */
export async function unpackLayer(gz: Uint8Array, what: string): Promise<PackedFile[]> {
  let raw: Buffer;
  try {
    raw = gunzipSync(gz, { maxOutputLength: UNPACKED_LIMIT });
  } catch (e) {
    throw new SourceError(
      'ArtifactInvalid',
      `${what}: not a whole gzip stream (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const extract = tar.extract();
  const files: PackedFile[] = [];
  const reading = (async () => {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      const chunks: Buffer[] = [];
      for await (const c of entry) if (Buffer.isBuffer(c)) chunks.push(c);
      if (type === 'directory') continue;
      if (type !== 'file' && type !== 'contiguous-file') {
        throw new SourceError(
          'ArtifactInvalid',
          `${what}: ${name} is a ${type ?? 'special'} entry; only regular files are read`,
        );
      }
      const path = safePath(name);
      if (!path) throw new SourceError('ArtifactInvalid', `${what}: ${name} is outside the artifact's folder`);
      files.push({ path, bytes: Buffer.concat(chunks) });
    }
  })();
  Readable.from([raw]).pipe(extract);
  try {
    await reading;
  } catch (e) {
    if (e instanceof SourceError) throw e;
    throw new SourceError(
      'ArtifactInvalid',
      `${what}: not a whole tar archive (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}
