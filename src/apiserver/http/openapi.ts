import type { ResourceRegistry } from '../registry/resource-registry.js';
import type { ResourceType } from '../registry/types.js';
import { crdDocument } from '../openapi/crd-document.js';
import { documentHash, gvPath } from '../openapi/vendor-files.js';
import { vendoredOpenApi, type VendoredOpenApi } from '../openapi/vendored.js';

/**
 * OpenAPI v3 per group-version, as kube-apiserver serves it under /openapi/v3: the built-in
 * group-versions are kube-apiserver's own documents (vendored, read on first request), the CRD ones
 * are built from the CRDs' openAPIV3Schema and rebuilt when a CRD changes. `kubectl explain`, its
 * field validation and the apply patcher all read these.
 */
export class OpenApiV3 {
  private crdCache: { version: number; docs: Map<string, { text: string; hash: string }> } | undefined;

  constructor(
    private readonly registry: ResourceRegistry,
    private readonly vendored: VendoredOpenApi = vendoredOpenApi,
  ) {}

  index(): object {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const path of this.builtinPaths())
      paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${this.vendored.manifest().v3[path]!.hash}` };
    for (const [path, doc] of this.crdDocs())
      paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${doc.hash}` };
    return { paths };
  }

  document(path: string): string | undefined {
    if (this.builtinPaths().has(path)) return this.vendored.v3Text(path);
    return this.crdDocs().get(path)?.text;
  }

  /** Built-in group-versions the registry serves and the vendored files cover (a test keeps the two equal). */
  private builtinPaths(): Set<string> {
    const manifest = this.vendored.manifest().v3;
    return new Set(
      this.registry
        .all()
        .filter((t) => !t.custom && gvPath(t) in manifest)
        .map(gvPath),
    );
  }

  private crdDocs(): Map<string, { text: string; hash: string }> {
    if (this.crdCache?.version === this.registry.version) return this.crdCache.docs;
    const byGv = new Map<string, ResourceType[]>();
    for (const t of this.registry.all()) if (t.custom) byGv.set(gvPath(t), [...(byGv.get(gvPath(t)) ?? []), t]);
    const docs = new Map<string, { text: string; hash: string }>();
    if (byGv.size) {
      const meta = this.vendored.crdMeta();
      const version = this.vendored.manifest().kubernetesVersion;
      for (const [path, types] of byGv) {
        const text = JSON.stringify(crdDocument(types, meta, version));
        docs.set(path, { text, hash: documentHash(text) });
      }
    }
    this.crdCache = { version: this.registry.version, docs };
    return docs;
  }
}
