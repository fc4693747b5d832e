import { SourceError } from '../errors.js';
import type { RegistryCredentials } from './docker-config.js';
import {
  CREATED_ANNOTATION,
  FLUX_CONFIG,
  FLUX_CONTENT,
  OCI_MANIFEST,
  REVISION_ANNOTATION,
  SOURCE_ANNOTATION,
  type ImageManifest,
} from './media-types.js';
import { packFiles, type PackedFile } from './pack.js';
import { repositoryUrl, type OciReference } from './reference.js';
import { RegistryClient } from './registry-client.js';

export interface PushOptions {
  /** Must carry a tag: the artifact is pushed under it. */
  ref: OciReference;
  files: readonly PackedFile[];
  /** Where the definitions came from (a Git URL) and at which revision (`<branch>@sha1:<sha>`). */
  source: string;
  revision: string;
  credentials?: RegistryCredentials | undefined;
  insecure?: boolean | undefined;
  /** RFC 3339; fixed in tests so that the same tree gives the same digest. */
  created?: string | undefined;
}

/** The manifest of a Flux-convention artifact: an empty config and one gzipped tar layer. */
export function artifactManifest(
  config: { digest: string; size: number },
  layer: { digest: string; size: number },
  annotations: Record<string, string>,
): ImageManifest {
  return {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { mediaType: FLUX_CONFIG, digest: config.digest, size: config.size },
    layers: [{ mediaType: FLUX_CONTENT, digest: layer.digest, size: layer.size }],
    annotations,
  };
}

/** Packs the files, uploads config and layer, then the manifest under the tag; returns its digest. */
export async function pushArtifact(opts: PushOptions): Promise<{ url: string; digest: string }> {
  const tag = opts.ref.tag;
  if (!tag || opts.ref.digest)
    throw new SourceError(
      'ArtifactInvalid',
      `${repositoryUrl(opts.ref)}: push needs a tag (oci://registry/repository:tag)`,
    );
  const client = new RegistryClient({ ref: opts.ref, credentials: opts.credentials, insecure: opts.insecure });
  const config = await client.pushBlob(new TextEncoder().encode('{}'));
  const layer = await client.pushBlob(await packFiles(opts.files));
  const manifest = artifactManifest(config, layer, {
    [CREATED_ANNOTATION]: opts.created ?? new Date().toISOString(),
    [SOURCE_ANNOTATION]: opts.source,
    [REVISION_ANNOTATION]: opts.revision,
  });
  const digest = await client.putManifest(tag, new TextEncoder().encode(JSON.stringify(manifest)), OCI_MANIFEST);
  return { url: `${repositoryUrl(opts.ref)}:${tag}`, digest };
}
