// The schemas a webhook check reads: the cluster's CRDs (listed, kept for `maxAgeMs`) and the
// vendored built-in kinds. The list is short-lived so that a Flow applied seconds after its CRD
// is checked against it; a list of every CRD every few seconds costs the API server little.
import type { KubeClient } from '../kube/index.js';
import { SchemaRegistry } from '../typecheck/index.js';

export interface SchemaSource {
  registry(): Promise<SchemaRegistry>;
}

export class ClusterSchemas implements SchemaSource {
  private cached: { at: number; registry: Promise<SchemaRegistry> } | undefined;

  constructor(
    private readonly kube: KubeClient,
    private readonly maxAgeMs = 5_000,
  ) {}

  registry(): Promise<SchemaRegistry> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > this.maxAgeMs) {
      const registry = this.list();
      this.cached = { at: now, registry };
      // A failed list is not kept: the next request lists again.
      registry.catch(() => {
        if (this.cached?.registry === registry) this.cached = undefined;
      });
    }
    return this.cached.registry;
  }

  /** Drops the cached list: the next request lists the CRDs again. */
  invalidate(): void {
    this.cached = undefined;
  }

  private async list(): Promise<SchemaRegistry> {
    const { items } = await this.kube.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition');
    return new SchemaRegistry(items);
  }
}

/** Schemas fixed at construction (tests, the embedded server's in-process check). */
export class FixedSchemas implements SchemaSource {
  constructor(private readonly fixed: SchemaRegistry) {}

  registry(): Promise<SchemaRegistry> {
    return Promise.resolve(this.fixed);
  }
}
