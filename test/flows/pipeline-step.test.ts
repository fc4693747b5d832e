import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { waitFor } from '../helpers/wait.js';

let env: FlowOpsEnv;
beforeAll(async () => {
  env = await startFlowOps();
  await env.kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
});
afterAll(async () => env?.stop());

describe('a pipeline step in a Flow', () => {
  it('evaluates a Δ-controller expression over the resource and exposes the result as outputs', async () => {
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: flowops.io/v1
kind: Flow
metadata:
  name: sizes
  namespace: default
spec:
  watch: { apiVersion: example.com/v1, kind: Widget }
  reconcile:
    steps:
      - name: compute
        type: pipeline
        expression:
          doubled: { "@mul": ["$.spec.size", 2] }
          large: { "@gt": ["$.spec.size", 10] }
      - name: write
        type: kubectl
        action: apply
        when: "{{ .Steps.compute.Outputs.large }}"
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: {{ .Resource.metadata.name }}-size
          data:
            doubled: "{{ .Steps.compute.Outputs.doubled }}"
`,
    );
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: big, namespace: default}\nspec: {size: 21}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: small, namespace: default}\nspec: {size: 3}\n',
    );
    const cm = await waitFor(
      async () => {
        const r = await env.kubectl(['get', 'cm', 'big-size', '-o', 'json']);
        return r.code === 0 ? JSON.parse(r.stdout) : undefined;
      },
      { what: 'big-size' },
    );
    expect(cm.data.doubled).toBe('42');
    await waitFor(
      async () =>
        JSON.parse(await env.kubectl.ok(['get', 'widget', 'small', '-o', 'json'])).status?.conditions?.[0]?.status ===
        'True',
      { what: 'small reconciled' },
    );
    expect((await env.kubectl(['get', 'cm', 'small-size'])).code).not.toBe(0);
  });
});
