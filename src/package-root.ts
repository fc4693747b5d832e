import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder of FlowOps' package.json, found from this module's own location, so that the paths
// to the web view's build, the vendored schemas and the repository's tool folder are right wherever
// the code runs from: src/ (tsx), dist/ (tsc) or dist/bundle/ (the CLI bundle, whose chunks sit at
// another depth than the modules they were built from).
function packageRootFrom(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'flowops')
      return dir;
    // Invariant: this module ships inside the flowops package, so its package.json is above it.
    if (dirname(dir) === dir) throw new Error(`FlowOps cannot find its package.json above ${start}`);
  }
}

export const PACKAGE_ROOT = packageRootFrom(dirname(fileURLToPath(import.meta.url)));

/** Where `npm ci` unpacks kubectl, helm and kustomize (scripts/install-tools.mjs). */
export const REPO_TOOLS = join(PACKAGE_ROOT, '.tools', 'bin');
