// Adds (or refreshes) one named cluster, user and context in a user's kubeconfig, the way kind and
// k3d do, leaving every other entry, the comments and the current context as they are (unless
// the file had no current context). Written atomically, owner-only for a new file.

import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isMap, isSeq, parseDocument, YAMLSeq, type Document } from 'yaml';
import { embeddedEntries, type EmbeddedCredentials } from './kubeconfig.js';
import { KubeConfigError } from './errors.js';

export interface MergeResult {
  file: string;
  /** The file did not exist before. */
  created: boolean;
  /** The context became the current one (the file had none). */
  madeCurrent: boolean;
}

/** Replaces the entry called `name` in the list under `key`, or appends it. */
function upsert(doc: Document, key: string, name: string, entry: Record<string, unknown>): void {
  let list = doc.get(key);
  if (!isSeq(list)) {
    list = new YAMLSeq();
    doc.set(key, list);
  }
  const seq = list as YAMLSeq;
  const node = doc.createNode({ name, ...entry });
  const i = seq.items.findIndex((item) => isMap(item) && item.get('name') === name);
  if (i >= 0) seq.items[i] = node;
  else seq.items.push(node);
}

export function mergeKubeconfigContext(
  file: string,
  name: string,
  serverUrl: string,
  creds?: EmbeddedCredentials,
): MergeResult {
  const created = !existsSync(file);
  const doc = created
    ? parseDocument('apiVersion: v1\nkind: Config\npreferences: {}\n')
    : parseDocument(readFileSync(file, 'utf8'));
  if (doc.errors.length)
    throw new KubeConfigError('InvalidKubeconfig', `${file} is not valid YAML: ${doc.errors[0]!.message}`);
  const { cluster, user } = embeddedEntries(serverUrl, creds);
  upsert(doc, 'clusters', name, { cluster });
  upsert(doc, 'users', name, { user });
  upsert(doc, 'contexts', name, { context: { cluster: name, user: name, namespace: 'default' } });
  const current = doc.get('current-context');
  const madeCurrent = typeof current !== 'string' || current === '';
  if (madeCurrent) doc.set('current-context', name);
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.flowops-${process.pid}.tmp`;
  writeFileSync(tmp, doc.toString(), { mode: created ? 0o600 : statSync(file).mode & 0o777 });
  renameSync(tmp, file);
  return { file, created, madeCurrent };
}
