import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { JsonObject } from '../registry/types.js';
import {
  CRD_META_FILE,
  MANIFEST_FILE,
  SWAGGER_DEFINITIONS_FILE,
  VENDOR_DIR,
  gvPath,
  type VendorManifest,
} from './vendor-files.js';

/** apiVersion, kind and metadata as kube-apiserver declares them on every kind, and a list's metadata. */
export interface TypeMetaProperties {
  apiVersion: JsonObject;
  kind: JsonObject;
  metadata: JsonObject;
  listMetadata: JsonObject;
}

export type CrdPathTemplate = 'collection' | 'item' | 'status' | 'scale' | 'allNamespaces';

/** The apimachinery schemas and operation templates a CRD's v3 document is built from. */
export interface CrdMeta {
  schemas: JsonObject;
  paths: Record<CrdPathTemplate, JsonObject>;
  properties: TypeMetaProperties;
}

export interface KindSchema {
  root: JsonObject;
  schemas: JsonObject;
}

export interface SwaggerDefinitions {
  definitions: JsonObject;
  properties: TypeMetaProperties;
}

/**
 * The vendored schemas (scripts/gen-openapi.ts), each file read and decompressed the first time it is
 * asked for and kept: a client that never reads OpenAPI costs nothing but the manifest. Shared by every
 * server in the process, as the files never change while it runs.
 */
export class VendoredOpenApi {
  private manifestCache: VendorManifest | undefined;
  private readonly texts = new Map<string, string>();
  private readonly kinds = new Map<string, Map<string, KindSchema>>();
  private meta: CrdMeta | undefined;
  private swaggerCache: SwaggerDefinitions | undefined;

  constructor(private readonly dir: string) {}

  manifest(): VendorManifest {
    return (this.manifestCache ??= JSON.parse(readFileSync(join(this.dir, MANIFEST_FILE), 'utf8')) as VendorManifest);
  }

  /** The v3 document of a built-in group-version (`api/v1`, `apis/apps/v1`), as served. */
  v3Text(path: string): string | undefined {
    const entry = this.manifest().v3[path];
    if (!entry) return undefined;
    let text = this.texts.get(path);
    if (text === undefined) this.texts.set(path, (text = this.read(entry.file)));
    return text;
  }

  /** A built-in kind's schema in its group-version's document, with the schemas its `$ref`s name. */
  kindSchema(group: string, version: string, kind: string): KindSchema | undefined {
    const path = gvPath({ group, version });
    let byKind = this.kinds.get(path);
    if (!byKind) {
      byKind = new Map();
      // Parsed for the check, not kept as text: most servers never serve the document itself.
      const entry = this.manifest().v3[path];
      const text = entry && (this.texts.get(path) ?? this.read(entry.file));
      // Descriptions (most of the bytes) are dropped: the check reads only the shapes. A field named
      // `description` is an object (its schema) and stays.
      const parsed = text
        ? (JSON.parse(text, (k, v: unknown) => (k === 'description' && typeof v === 'string' ? undefined : v)) as {
            components: { schemas: JsonObject };
          })
        : undefined;
      const schemas = parsed?.components.schemas ?? {};
      for (const root of Object.values(schemas)) {
        const gvks =
          (root as { 'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }> })[
            'x-kubernetes-group-version-kind'
          ] ?? [];
        for (const gvk of gvks)
          if (gvk.group === group && gvk.version === version)
            byKind.set(gvk.kind, { root: root as JsonObject, schemas });
      }
      this.kinds.set(path, byKind);
    }
    return byKind.get(kind);
  }

  crdMeta(): CrdMeta {
    return (this.meta ??= JSON.parse(this.read(CRD_META_FILE)) as CrdMeta);
  }

  swagger(): SwaggerDefinitions {
    return (this.swaggerCache ??= JSON.parse(this.read(SWAGGER_DEFINITIONS_FILE)) as SwaggerDefinitions);
  }

  private read(file: string): string {
    return gunzipSync(readFileSync(join(this.dir, file))).toString('utf8');
  }
}

export const vendoredOpenApi = new VendoredOpenApi(VENDOR_DIR);
