// What the two previews tests (the view API's, the browser's) start from: a FlowSource `repo` on
// the embedded server and a stored preview of one changed Flow.
import type { KubeObject } from '../../src/kube/types.js';
import type { StoredPreview } from '../../src/preview/preview-store.js';
import type { FlowOpsEnv } from '../helpers/flowops.js';

export const samplePreview = (pr: number, over: Partial<StoredPreview> = {}): StoredPreview => ({
  source: { namespace: 'default', name: 'repo' },
  pr,
  headRef: `refs/pull/${pr}/head`,
  sha: 'a'.repeat(40),
  at: '2026-12-02T12:00:00.000Z',
  state: 'success',
  description: 'preview: 1 changed, 0 created, 0 pruned; nothing applied',
  errors: [],
  summary: [
    { object: 'Flow default/web', change: 'changed', fields: ['spec.replicas'], children: ['Deployment default/a'] },
  ],
  diff: '--- Flow default/web (live)\n+++ Flow default/web (commit)\n-  replicas: 1\n+  replicas: 3\n',
  ...over,
});

/** The FlowSource `default/repo` (its URL answers nothing: no sync is wanted), as the server stored it. */
export async function applyRepoSource(env: FlowOpsEnv): Promise<KubeObject> {
  await env.kubectl.ok(
    ['apply', '-f', '-'],
    'apiVersion: flowops.io/v1\nkind: FlowSource\nmetadata: { name: repo, namespace: default }\nspec: { url: "http://127.0.0.1:9/none.git" }\n',
  );
  const got = await env.kube.get({
    apiVersion: 'flowops.io/v1',
    kind: 'FlowSource',
    namespace: 'default',
    name: 'repo',
  });
  if (!got) throw new Error('FlowSource not created');
  return got;
}
