import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../src/source/errors.js';
import { artifactDefinitions } from '../../src/source/oci/definitions.js';
import { packFiles, readTree } from '../../src/source/oci/pack.js';
import { artifactManifest } from '../../src/source/oci/push.js';
import { sha256Digest } from '../../src/source/oci/registry-client.js';
import { safePath, unpackLayer } from '../../src/source/oci/unpack.js';

// Packing a folder into the gzipped tar layer of a Flux-convention artifact and reading it back:
// reproducible, whole or refused, nothing outside the folder.

const enc = new TextEncoder();
const fileSet = [
  { path: 'flows/greeter.yaml', bytes: enc.encode('kind: Flow\n') },
  { path: 'app/Chart.yaml', bytes: enc.encode('name: app\n') },
  { path: 'app/templates/cm.yaml', bytes: enc.encode('kind: ConfigMap\n') },
  { path: '.hidden/x.yaml', bytes: enc.encode('x: 1\n') },
  { path: 'README.md', bytes: enc.encode('# hi\n') },
];

const refusal = async (p: Promise<unknown>): Promise<SourceError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof SourceError)) throw new Error(`expected a SourceError, got ${String(e)}`);
  return e;
};

describe('OCI artifact layer: pack and unpack', () => {
  it('packs reproducibly and unpacks to the same files; the tar is the real ustar format', async () => {
    const a = await packFiles(fileSet);
    const b = await packFiles([...fileSet].reverse());
    expect(sha256Digest(a)).toBe(sha256Digest(b));
    const tarBytes = gunzipSync(a);
    expect(tarBytes.subarray(257, 262).toString()).toBe('ustar');
    const back = await unpackLayer(a, 'layer');
    expect(back.map((f) => f.path)).toEqual([...fileSet.map((f) => f.path)].sort());
    expect(new TextDecoder().decode(back.find((f) => f.path === 'flows/greeter.yaml')?.bytes)).toBe('kind: Flow\n');
  });

  it('reads a folder without .git, and refuses a symlink', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oci-pack-'));
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'a.yaml'), 'a: 1\n');
    expect(readTree(dir).map((f) => f.path)).toEqual(['sub/a.yaml']);
    symlinkSync('/etc/passwd', join(dir, 'leak.yaml'));
    expect(() => readTree(dir)).toThrow(/symlink cannot be packed/);
  });

  it('refuses a truncated layer, a non-gzip layer and a path that leaves the folder', async () => {
    const whole = await packFiles(fileSet);
    const cut = await refusal(unpackLayer(whole.subarray(0, Math.floor(whole.length / 2)), 'the layer'));
    expect(cut.code).toBe('ArtifactInvalid');
    expect(cut.message).toMatch(/the layer: not a whole gzip stream/);
    expect((await refusal(unpackLayer(enc.encode('not gzip'), 'the layer'))).message).toContain(
      'not a whole gzip stream',
    );
    const evil = await packFiles([{ path: '../../etc/cron.d/x', bytes: enc.encode('x') }]);
    expect((await refusal(unpackLayer(evil, 'the layer'))).message).toContain('outside the artifact');
    // A gzip stream that is whole but holds half a tar archive.
    const halfTar = gzipSync(gunzipSync(whole).subarray(0, 700));
    expect((await refusal(unpackLayer(halfTar, 'the layer'))).message).toContain('not a whole tar archive');
    expect(safePath('./a/./b.yaml')).toBe('a/b.yaml');
    expect(safePath('/abs')).toBeUndefined();
  });

  it('chooses definitions as a Git commit does: YAML, not hidden, not inside a chart; under the path', () => {
    expect(artifactDefinitions(fileSet, '').map((f) => f.path)).toEqual(['flows/greeter.yaml']);
    expect(artifactDefinitions(fileSet, 'flows').map((f) => f.path)).toEqual(['flows/greeter.yaml']);
    expect(artifactDefinitions(fileSet, 'app')).toEqual([]);
  });

  it("the manifest carries Flux's media types and the Git origin annotations", () => {
    const m = artifactManifest(
      { digest: 'sha256:c', size: 2 },
      { digest: 'sha256:l', size: 9 },
      {
        'org.opencontainers.image.source': 'https://git.example/flows.git',
        'org.opencontainers.image.revision': 'main@sha1:0123',
      },
    );
    expect(m).toMatchObject({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.cncf.flux.config.v1+json' },
      layers: [{ mediaType: 'application/vnd.cncf.flux.content.v1.tar+gzip', digest: 'sha256:l', size: 9 }],
    });
  });
});
