import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { hasScale } from '../../src/apiserver/http/scale.js';
import {
  documentHash,
  gvPath,
  MANIFEST_FILE,
  VENDOR_DIR,
  type VendorManifest,
} from '../../src/apiserver/openapi/vendor-files.js';
import { BUILTIN_TYPES } from '../../src/apiserver/registry/builtins.js';
import { KUBERNETES_VERSION } from '../../src/apiserver/server-defaults.js';

// The vendored schemas are scripts/gen-openapi.ts's output; these fail when the registry or the reported
// version moved without running it again (`npm run gen:openapi`).
describe('vendored kube-apiserver OpenAPI (src/apiserver/openapi/vendor)', () => {
  const manifest = JSON.parse(readFileSync(join(VENDOR_DIR, MANIFEST_FILE), 'utf8')) as VendorManifest;

  it('is of the Kubernetes version the server reports, and covers exactly the served built-in group-versions', () => {
    expect(manifest.kubernetesVersion).toBe(KUBERNETES_VERSION);
    const served = [...new Set(BUILTIN_TYPES.map(gvPath))].sort();
    expect(Object.keys(manifest.v3).sort()).toEqual(served);
  });

  it('has, per group-version, the hash the index gives and a path for every served resource and subresource', () => {
    for (const [path, { file, hash }] of Object.entries(manifest.v3)) {
      const text = gunzipSync(readFileSync(join(VENDOR_DIR, file))).toString('utf8');
      expect(documentHash(text), path).toBe(hash);
      const doc = JSON.parse(text) as { paths: Record<string, unknown> };
      for (const t of BUILTIN_TYPES.filter((b) => gvPath(b) === path)) {
        const collection = `/${path}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.plural}`;
        const item = `${collection}/{name}`;
        // Create-only kinds (reviews, bindings) have no path per object.
        const perObject = !t.verbs || t.verbs.includes('get');
        expect(doc.paths[perObject ? item : collection], perObject ? item : collection).toBeDefined();
        for (const sub of t.subresources ?? [])
          expect(doc.paths[`${item}/${sub.name}`], `${item}/${sub.name}`).toBeDefined();
        expect(doc.paths[`${item}/status`] !== undefined, `${item}/status`).toBe(t.statusSubresource);
        expect(doc.paths[`${item}/scale`] !== undefined, `${item}/scale`).toBe(hasScale(t));
      }
    }
  });
});
