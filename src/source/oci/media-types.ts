/**
 * The media types and annotations of a FlowOps artifact: Flux's (`flux push artifact`), which users
 * of "Gitless GitOps" already know, so an artifact pushed by either tool is followed by either.
 */
export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const FLUX_CONFIG = 'application/vnd.cncf.flux.config.v1+json';
export const FLUX_CONTENT = 'application/vnd.cncf.flux.content.v1.tar+gzip';

export const SOURCE_ANNOTATION = 'org.opencontainers.image.source';
export const REVISION_ANNOTATION = 'org.opencontainers.image.revision';
export const CREATED_ANNOTATION = 'org.opencontainers.image.created';

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

export interface ImageManifest {
  schemaVersion: 2;
  mediaType: string;
  config: Descriptor;
  layers: Descriptor[];
  annotations?: Record<string, string>;
}

export const DIGEST = /^sha256:[0-9a-f]{64}$/;
