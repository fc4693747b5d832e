// The sample watched objects a render runs the Flows against (`--objects DIR|FILE`). Each must be
// of a kind some Flow watches: anything else would render nothing and most likely is a mistake
// (a wrong apiVersion, a Secret meant as input), so it is an error that names the watched kinds.

import { readFileSync } from 'node:fs';
import { isMap, LineCounter, parseAllDocuments } from 'yaml';
import type { ValidationError } from '../api/index.js';
import type { KubeObject } from '../kube/index.js';
import { findYamlFiles } from '../util/yaml-files.js';

export interface WatchedKind {
  apiVersion: string;
  kind: string;
  /** The one namespace a Flow watches it in; absent or "" for all. */
  namespace?: string | undefined;
}

export interface SampleObject {
  object: KubeObject;
  file: string;
}

/** A kind as users read it, also its identity: `Database (example.com/v1)`. */
export const kindKey = (k: WatchedKind): string => `${k.kind} (${k.apiVersion})`;

/** Reads the objects; those without a namespace get `defaultNamespace` unless their kind is cluster-scoped. */
export function readSampleObjects(
  paths: readonly string[],
  watched: readonly WatchedKind[],
  clusterScoped: ReadonlySet<string>,
  defaultNamespace = 'default',
): { objects: SampleObject[]; errors: ValidationError[] } {
  const found = findYamlFiles(paths);
  const errors: ValidationError[] = found.missing.map((m) => ({
    file: `--objects ${m.path}`,
    line: 0,
    column: 0,
    field: '',
    message: m.message,
  }));
  const objects: SampleObject[] = [];
  const seen = new Map<string, string>();
  const known = new Set(watched.map(kindKey));
  const watchedList = [...known].sort().join(', ') || 'none (no Flow was found)';
  for (const file of found.files) {
    const text = readFileSync(file, 'utf8');
    const counter = new LineCounter();
    for (const doc of parseAllDocuments(text, { lineCounter: counter, merge: true })) {
      const line = counter.linePos(doc.range[0]).line;
      const err = (field: string, message: string): void => void errors.push({ file, line, column: 1, field, message });
      if (doc.errors.length) {
        err('', `invalid YAML: ${(doc.errors[0]!.message.split('\n')[0] ?? '').trim()}`);
        continue;
      }
      if (doc.contents === null) continue;
      if (!isMap(doc.contents)) {
        err('', 'expected a Kubernetes object (a mapping with apiVersion and kind)');
        continue;
      }
      const obj = doc.toJS() as Partial<KubeObject>;
      if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') {
        err(typeof obj.apiVersion !== 'string' ? 'apiVersion' : 'kind', 'Required');
        continue;
      }
      if (typeof obj.metadata?.name !== 'string' || !obj.metadata.name) {
        err('metadata.name', 'Required');
        continue;
      }
      const key = kindKey({ apiVersion: obj.apiVersion, kind: obj.kind });
      if (!known.has(key)) {
        err('kind', `${key} is not watched by any Flow; the Flows watch: ${watchedList}`);
        continue;
      }
      const metadata = { ...obj.metadata };
      if (!metadata.namespace && !clusterScoped.has(key)) metadata.namespace = defaultNamespace;
      const namespaces = watched.filter((w) => kindKey(w) === key).map((w) => w.namespace || '');
      if (metadata.namespace && !namespaces.includes('') && !namespaces.includes(metadata.namespace)) {
        err(
          'metadata.namespace',
          `"${metadata.namespace}" is not watched: the Flows watching ${key} watch only namespace ${[...new Set(namespaces)].join(', ')}`,
        );
        continue;
      }
      const id = `${key} ${metadata.namespace ?? ''}/${metadata.name}`;
      const earlier = seen.get(id);
      if (earlier) {
        err(
          'metadata.name',
          `${obj.kind} ${metadata.namespace ? `${metadata.namespace}/` : ''}${metadata.name} is also defined in ${earlier}`,
        );
        continue;
      }
      seen.set(id, `${file}:${line}`);
      objects.push({ object: { ...(obj as KubeObject), metadata }, file });
    }
  }
  return { objects, errors };
}
