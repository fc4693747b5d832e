// The YAML files a render or diff reads from the paths it is given, found as the GitOps sync finds
// definition files (src/source/diff.ts): hidden folders and node_modules are skipped, and so are
// Helm charts and kustomize bases (a folder with Chart.yaml or a kustomization), which are inputs
// of template steps, not objects to apply.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const YAML_FILE = /\.ya?ml$/i;
const INPUT_MARKERS = new Set(['Chart.yaml', 'kustomization.yaml', 'kustomization.yml', 'Kustomization']);

export interface FoundFiles {
  files: string[];
  /** Paths that could not be read, with why. */
  missing: Array<{ path: string; message: string }>;
}

/** Files named on the command line are taken whatever their extension; directories give their YAML, sorted. */
export function findYamlFiles(paths: readonly string[]): FoundFiles {
  const out: FoundFiles = { files: [], missing: [] };
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (e) {
      out.missing.push({
        path,
        message: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message,
      });
      continue;
    }
    if (isDir) walk(path, out.files);
    else out.files.push(path);
  }
  out.files = [...new Set(out.files)];
  return out;
}

function walk(dir: string, files: string[]): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  if (entries.some((e) => e.isFile() && INPUT_MARKERS.has(e.name))) return;
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const child = join(dir, entry.name);
    if (entry.isDirectory()) walk(child, files);
    else if (entry.isFile() && YAML_FILE.test(entry.name)) files.push(child);
  }
}
