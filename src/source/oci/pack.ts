import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { SourceError } from '../errors.js';

export interface PackedFile {
  /** Relative, with forward slashes. */
  path: string;
  bytes: Uint8Array;
}

/** Every regular file under `dir`, sorted, without .git; a symlink is refused (its target may lie outside). */
export function readTree(dir: string): PackedFile[] {
  const out: PackedFile[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      if (name === '.git') continue;
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, path));
      if (st.isSymbolicLink())
        throw new SourceError('ArtifactInvalid', `${join(dir, path)}: a symlink cannot be packed into an artifact`);
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) out.push({ path, bytes: readFileSync(join(dir, path)) });
    }
  };
  walk('');
  return out;
}

/**
 * The files as a gzipped tar, the layer of a Flux artifact. Reproducible: sorted entries, mtime 0,
 * uid/gid 0, one mode, so packing the same tree twice gives the same digest.
 */
export async function packFiles(files: readonly PackedFile[]): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    pack.on('data', (c: unknown) => {
      if (Buffer.isBuffer(c)) chunks.push(c);
    });
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    pack.entry(
      { name: f.path, size: f.bytes.length, mode: 0o644, mtime: new Date(0), uid: 0, gid: 0, type: 'file' },
      Buffer.from(f.bytes),
    );
  }
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks), { level: 9 });
}
