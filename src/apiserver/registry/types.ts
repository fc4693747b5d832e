export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  description?: string;
  format?: string;
  priority?: number;
}

/** One served group/version/resource. CRD versions and built-in kinds share this shape. */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  statusSubresource: boolean;
  /** A CRD version's `subresources.scale`: where replicas and the selector live. */
  scaleSubresource?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** Defined by a CustomResourceDefinition (served with CR rules: no strategic merge, RV required on PUT). */
  custom: boolean;
  /** openAPIV3Schema of a CRD version. */
  schema?: JsonObject;
  printerColumns?: PrinterColumn[];
  /** Built-ins whose strategy tracks metadata.generation. */
  tracksGeneration: boolean;
  /** Kept in another group's storage, converted on the way in and out (events.k8s.io Events are core Events). */
  storage?: StorageConversion;
  /** Discovery's verbs when not every storage verb is served (create-only reviews, get/list componentstatuses). */
  verbs?: string[];
  /** Subresources beyond status and scale, as discovery lists them (answered in http/subresources.ts). */
  subresources?: ExtraSubresource[];
}

/** A subresource discovery lists beside the resource: `pods/log`, `certificatesigningrequests/approval`, … */
export interface ExtraSubresource {
  name: string;
  kind: string;
  verbs: string[];
  /** When the subresource's kind is another group's (pods/eviction is policy/v1 Eviction). */
  group?: string;
  version?: string;
}

/**
 * How a resource shares another's storage, as kube-apiserver serves events.k8s.io/v1 Events from the
 * core Events' registry: objects are stored in `group`'s form and converted at the store's boundary.
 */
export interface StorageConversion {
  group: string;
  toStorage(obj: JsonObject): JsonObject;
  fromStorage(obj: JsonObject): JsonObject;
}

type StorageLocation = Pick<ResourceType, 'group' | 'plural' | 'namespaced'> & {
  storage?: Pick<StorageConversion, 'group'>;
};

export function apiVersionOf(t: Pick<ResourceType, 'group' | 'version'>): string {
  return t.group ? `${t.group}/${t.version}` : t.version;
}

/** `widgets.example.com`, or just `configmaps` for the core group: how Status messages name a resource. */
export function qualifiedResource(t: Pick<ResourceType, 'group' | 'plural'>): string {
  return t.group ? `${t.plural}.${t.group}` : t.plural;
}

export function qualifiedKind(t: Pick<ResourceType, 'group' | 'kind'>): string {
  return t.group ? `${t.kind}.${t.group}` : t.kind;
}

export function storageKey(t: StorageLocation, namespace: string | undefined, name: string): string {
  return t.namespaced ? `${collectionPrefix(t, namespace ?? '')}${name}` : `${collectionPrefix(t, undefined)}${name}`;
}

/** Prefix of every key of this resource, optionally within one namespace. */
export function collectionPrefix(t: StorageLocation, namespace: string | undefined): string {
  const base = `/registry/${(t.storage ? t.storage.group : t.group) || 'core'}/${t.plural}/`;
  return t.namespaced && namespace ? `${base}${namespace}/` : base;
}
