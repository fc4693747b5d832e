import semver from 'semver';
import { z } from 'zod';
import {
  SourceError,
  type SourceErrorCode,
  OCI_MANIFEST,
  parseOciUrl,
  repositoryUrl,
  RegistryClient,
} from '../source/index.js';
import { ChartError, type ChartErrorCode } from './errors.js';
import type { BasicCredentials } from './http-get.js';
import { HELM_CONFIG, HELM_CONTENT, HELM_PROVENANCE } from './media-types.js';
import { PROVENANCE_LIMIT } from './provenance.js';
import { highestMatch } from './versions.js';

export interface OciChartOptions {
  /** oci://registry/path; the chart is the repository <path>/<name>, as `helm push` names it. */
  repository: string;
  name: string;
  version: string;
  credentials?: BasicCredentials | undefined;
  ca?: string | undefined;
  insecure?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

export interface ResolvedOciChart {
  client: RegistryClient;
  /** oci://registry/path/name */
  reference: string;
  version: string;
  manifestDigest: string;
  layer: Descriptor;
  /** The provenance layer `helm push` adds when a .prov lies beside the archive. */
  provenance: Descriptor | undefined;
}

type Descriptor = { mediaType: string; digest: string; size: number };

const descriptor = z.object({ mediaType: z.string(), digest: z.string(), size: z.number().int().min(0) });
const manifestSchema = z.object({ schemaVersion: z.literal(2), config: descriptor, layers: z.array(descriptor) });

// The registry client's failures, in the chart vocabulary a template step reports.
const CODES: Record<SourceErrorCode, ChartErrorCode> = {
  AuthRequired: 'ChartAuthRequired',
  AuthFailed: 'ChartAuthFailed',
  RefNotFound: 'ChartNotFound',
  DigestMismatch: 'ChartDigestMismatch',
  ArtifactInvalid: 'ChartInvalid',
  FetchFailed: 'ChartFetchFailed',
  CommitNotFound: 'ChartNotFound',
  VerifyKeysInvalid: 'ChartInvalid',
  DecryptionKeysInvalid: 'ChartInvalid',
  ArtifactUnsigned: 'ChartSignatureInvalid',
  ArtifactSignatureInvalid: 'ChartSignatureInvalid',
};

/** Runs a registry call, turning its SourceError into the ChartError of the same meaning. */
export async function asChartError<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof SourceError) throw new ChartError(CODES[e.code], e.message);
    throw e;
  }
}

/**
 * OCI tags cannot hold "+", so `helm push` writes a version's build metadata with "_" instead
 * (1.0.0+gitsha is tag 1.0.0_gitsha); reading the tag list undoes it.
 */
const versionOfTag = (tag: string): string => tag.replace(/_/g, '+');
const tagOfVersion = (version: string): string => version.replace(/\+/g, '_');

export function resolveOciChart(o: OciChartOptions): Promise<ResolvedOciChart> {
  return asChartError(async () => {
    const base = o.repository.replace(/\/+$/, '');
    const ref = parseOciUrl(`${base}/${o.name}`, 'chart.repository');
    if (ref.tag !== undefined || ref.digest !== undefined) {
      throw new ChartError('ChartRefInvalid', `${base}/${o.name}: the version goes in chart.version, not in the URL`);
    }
    const { credentials, insecure, ca, signal } = o;
    const client = new RegistryClient({ ref, credentials, insecure, ca, signal });
    const reference = repositoryUrl(ref);
    // An exact version is a tag to read; only a range needs the tag list (as `helm pull --version`).
    const exact = semver.valid(o.version, { loose: true });
    let version: string | undefined = exact ? o.version : undefined;
    if (!version) {
      const versions = (await client.listTags()).map(versionOfTag);
      version = highestMatch(versions, o.version);
      if (!version)
        throw new ChartError('ChartVersionNotFound', `${reference}: no tag matches the version "${o.version}"`);
    }
    let manifest: Awaited<ReturnType<typeof client.getManifest>>;
    try {
      manifest = await client.getManifest(tagOfVersion(version), OCI_MANIFEST);
    } catch (e) {
      if (e instanceof SourceError && e.code === 'RefNotFound') {
        throw new ChartError('ChartVersionNotFound', `${reference}: no version ${version} (tag not found)`);
      }
      throw e;
    }
    return {
      client,
      reference,
      version,
      manifestDigest: manifest.digest,
      ...helmLayers(manifest.bytes, reference, version),
    };
  });
}

/** The chart layer (and provenance layer) of a Helm chart manifest; anything else at that tag is refused. */
function helmLayers(
  bytes: Uint8Array,
  reference: string,
  version: string,
): { layer: Descriptor; provenance: Descriptor | undefined } {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ChartError('ChartInvalid', `${reference}:${version}: the manifest is not JSON`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) throw new ChartError('ChartInvalid', `${reference}:${version}: not an OCI image manifest`);
  if (parsed.data.config.mediaType !== HELM_CONFIG) {
    throw new ChartError(
      'ChartInvalid',
      `${reference}:${version} is not a Helm chart (config ${parsed.data.config.mediaType}, expected ${HELM_CONFIG})`,
    );
  }
  const layers = parsed.data.layers.filter((l) => l.mediaType === HELM_CONTENT);
  const layer = layers[0];
  if (layers.length !== 1 || !layer) {
    throw new ChartError(
      'ChartInvalid',
      `${reference}:${version}: expected one ${HELM_CONTENT} layer, found ${layers.length}`,
    );
  }
  const provenance = parsed.data.layers.filter((l) => l.mediaType === HELM_PROVENANCE);
  if (provenance.length > 1) {
    throw new ChartError(
      'ChartInvalid',
      `${reference}:${version}: ${provenance.length} provenance layers, expected one`,
    );
  }
  return { layer, provenance: provenance[0] };
}

/** The chart layer's bytes, checked by the registry client against the layer's size and digest. */
export function fetchOciChart(chart: ResolvedOciChart): Promise<Uint8Array> {
  return asChartError(() => chart.client.getBlob(chart.layer, `the chart layer of ${chart.version}`));
}

/**
 * The provenance layer's text and the file name it vouches for (`<name>-<version>.tgz`, the file
 * `helm package --sign` signed and `helm push` uploaded); a chart pushed without one is
 * ChartProvenanceMissing.
 */
export async function fetchOciProvenance(
  chart: ResolvedOciChart,
  name: string,
): Promise<{ text: string; file: string }> {
  const layer = chart.provenance;
  if (!layer) {
    throw new ChartError(
      'ChartProvenanceMissing',
      `${chart.reference}:${chart.version}: verification asked for, and the manifest has no provenance layer ` +
        `(${HELM_PROVENANCE}); push the chart with its .prov beside it`,
    );
  }
  if (layer.size > PROVENANCE_LIMIT) {
    throw new ChartError(
      'ChartProvenanceInvalid',
      `${chart.reference}:${chart.version}: a provenance layer of ${layer.size} bytes`,
    );
  }
  const bytes = await asChartError(() => chart.client.getBlob(layer, `the provenance layer of ${chart.version}`));
  return { text: new TextDecoder().decode(bytes), file: `${name}-${chart.version}.tgz` };
}
