import { partialObjectMetadata } from '../objects/meta.js';
import type { JsonObject, ResourceType } from '../registry/types.js';

/** `Accept: …;as=PartialObjectMetadata(List);g=meta.k8s.io;v=v1`: only the objects' metadata (metadata informers). */
export function wantsMetadataOnly(accept: string | undefined): boolean {
  return (
    !!accept &&
    /as=PartialObjectMetadata(List)?\b/.test(accept.split(',')[0] ?? '') &&
    /g=meta\.k8s\.io/.test(accept.split(',')[0] ?? '')
  );
}

export function partialMetadata(t: ResourceType, text: string): JsonObject {
  return partialObjectMetadata(t, JSON.parse(text) as JsonObject);
}

export function partialMetadataList(t: ResourceType, meta: Record<string, unknown>, items: string[]): unknown {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: 'meta.k8s.io/v1',
    metadata: meta,
    items: items.map((i) => partialMetadata(t, i)),
  };
}
