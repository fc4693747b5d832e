import semver from 'semver';
import { z } from 'zod';
import { SourceError } from '../errors.js';
import type { RegistryCredentials } from './docker-config.js';
import { FLUX_CONTENT, OCI_MANIFEST, REVISION_ANNOTATION, SOURCE_ANNOTATION } from './media-types.js';
import type { PackedFile } from './pack.js';
import { repositoryUrl, type OciReference } from './reference.js';
import { RegistryClient } from './registry-client.js';
import { unpackLayer } from './unpack.js';

/** What a FlowSource's spec.oci.ref selects: a digest wins over a tag or a semver range. */
export interface ArtifactSelector {
  tag?: string | undefined;
  semver?: string | undefined;
  digest?: string | undefined;
}

export interface ResolvedArtifact {
  client: RegistryClient;
  /** The manifest's digest. */
  digest: string;
  /** The tag it was found under (undefined when selected by digest). */
  tag?: string | undefined;
  /** `<tag>@sha256:<hex>`, or `sha256:<hex>`: Flux's OCIRepository revision format. */
  revision: string;
  layer: { digest: string; size: number };
  /** The Git revision (`<branch>@sha1:<sha>`) and URL the artifact was pushed from (its OCI annotations). */
  origin?: string | undefined;
  originSource?: string | undefined;
}

const descriptor = z.object({ mediaType: z.string(), digest: z.string(), size: z.number().int().min(0) });
const manifestSchema = z.object({
  schemaVersion: z.literal(2),
  mediaType: z.string().optional(),
  config: descriptor,
  layers: z.array(descriptor),
  annotations: z.record(z.string(), z.string()).optional(),
});

const ACCEPT = `${OCI_MANIFEST}, application/vnd.docker.distribution.manifest.v2+json`;

/** The newest tag in a semver range (leading "v" allowed, as Flux allows it); undefined when none fits. */
export function newestInRange(tags: readonly string[], range: string): string | undefined {
  const fits = tags.filter((t) => semver.valid(t, { loose: true }) && semver.satisfies(t, range, { loose: true }));
  return fits.sort((a, b) => semver.rcompare(a, b, { loose: true }))[0];
}

/**
 * Resolves the selector to one manifest and checks it is a FlowOps/Flux artifact (one
 * application/vnd.cncf.flux.content.v1.tar+gzip layer); the layer itself is not read yet.
 */
export async function resolveArtifact(opts: {
  ref: OciReference;
  selector: ArtifactSelector;
  where: string;
  credentials?: RegistryCredentials | undefined;
  insecure?: boolean | undefined;
}): Promise<ResolvedArtifact> {
  const client = new RegistryClient({ ref: opts.ref, credentials: opts.credentials, insecure: opts.insecure });
  const name = repositoryUrl(opts.ref);
  let tag = opts.selector.digest ? undefined : opts.selector.tag;
  if (!opts.selector.digest && !tag && opts.selector.semver) {
    const range = opts.selector.semver;
    if (!semver.validRange(range, { loose: true })) {
      throw new SourceError('ArtifactInvalid', `${opts.where}.ref.semver: "${range}" is not a semver range`);
    }
    tag = newestInRange(await client.listTags(), range);
    if (!tag) throw new SourceError('RefNotFound', `${name}: no tag matches the semver range "${range}"`);
  }
  const reference = opts.selector.digest ?? tag ?? 'latest';
  if (!opts.selector.digest && !tag) tag = 'latest';
  const { digest, bytes } = await client.getManifest(reference, ACCEPT);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new SourceError('ArtifactInvalid', `${name}@${digest}: the manifest is not JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    throw new SourceError(
      'ArtifactInvalid',
      `${name}@${digest}: not an OCI image manifest (an index or another kind of object?)`,
    );
  const layers = parsed.data.layers.filter((l) => l.mediaType === FLUX_CONTENT);
  const layer = layers[0];
  if (layers.length !== 1 || !layer) {
    const seen = parsed.data.layers.map((l) => l.mediaType).join(', ') || 'none';
    throw new SourceError('ArtifactInvalid', `${name}@${digest}: expected one ${FLUX_CONTENT} layer, found: ${seen}`);
  }
  const a = parsed.data.annotations ?? {};
  return {
    client,
    digest,
    tag,
    revision: tag ? `${tag}@${digest}` : digest,
    layer: { digest: layer.digest, size: layer.size },
    origin: a[REVISION_ANNOTATION],
    originSource: a[SOURCE_ANNOTATION],
  };
}

/** The artifact's files: the layer read whole, checked against its digest and size, unpacked in memory. */
export async function pullFiles(artifact: ResolvedArtifact): Promise<PackedFile[]> {
  const bytes = await artifact.client.getBlob({ mediaType: FLUX_CONTENT, ...artifact.layer }, 'the content layer');
  return unpackLayer(bytes, `the content layer ${artifact.layer.digest} of ${artifact.revision}`);
}
