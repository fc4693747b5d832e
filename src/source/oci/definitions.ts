import { INPUT_MARKERS, isDefinition } from '../diff.js';
import type { PackedFile } from './pack.js';

/**
 * The definition files of an artifact under `prefix`, by the rules a Git commit's are chosen
 * (YAML, not hidden, not inside a Helm chart or kustomize base), with their paths in the artifact.
 */
export function artifactDefinitions(
  files: readonly PackedFile[],
  prefix: string,
): Array<{ path: string; text: string }> {
  const under = files.filter((f) => !prefix || f.path.startsWith(`${prefix}/`));
  const inputDirs = new Set(
    under.filter((f) => INPUT_MARKERS.has(f.path.split('/').pop() ?? '')).map((f) => dirOf(f.path)),
  );
  const insideInput = (path: string): boolean => {
    for (let dir = dirOf(path); ; dir = dirOf(dir)) {
      if (inputDirs.has(dir)) return true;
      if (!dir) return false;
    }
  };
  const decoder = new TextDecoder();
  return under
    .filter((f) => isDefinition(prefix ? f.path.slice(prefix.length + 1) : f.path, insideInput(f.path)))
    .map((f) => ({ path: f.path, text: decoder.decode(f.bytes) }));
}

const dirOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
