import type { KubeObject } from '../kube/index.js';

/** Where an object applied from Git came from: which FlowSource, which commit, which file. */
export const SOURCE_ANNOTATION = 'flowops.io/source';
export const REVISION_ANNOTATION = 'flowops.io/revision';
export const PATH_ANNOTATION = 'flowops.io/path';
/** For an OCI source: the Git revision the artifact was pushed from, beside the artifact's digest in REVISION. */
export const ORIGIN_ANNOTATION = 'flowops.io/origin-revision';

export interface Provenance {
  /** `namespace/name` of the FlowSource. */
  source: string;
  /** `<ref>@sha1:<sha>`. */
  revision: string;
  /** The file in the repository. */
  path: string;
  /** An OCI source's artifact: the Git revision it was pushed from. */
  origin?: string | undefined;
}

export function stamp(obj: KubeObject, p: Provenance): KubeObject {
  return {
    ...obj,
    metadata: {
      ...obj.metadata,
      annotations: {
        ...(obj.metadata.annotations ?? {}),
        [SOURCE_ANNOTATION]: p.source,
        [REVISION_ANNOTATION]: p.revision,
        [PATH_ANNOTATION]: p.path,
        ...(p.origin ? { [ORIGIN_ANNOTATION]: p.origin } : {}),
      },
    },
  };
}

export function provenanceOf(obj: KubeObject): Provenance | undefined {
  const a = obj.metadata.annotations ?? {};
  const source = a[SOURCE_ANNOTATION];
  const revision = a[REVISION_ANNOTATION];
  const origin = a[ORIGIN_ANNOTATION];
  if (!source || !revision) return undefined;
  return { source, revision, path: a[PATH_ANNOTATION] ?? '', ...(origin ? { origin } : {}) };
}
