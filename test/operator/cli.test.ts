import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { dryRun } from '../../src/operator/dry-run.js';
import { loadObjects, loadOperators } from '../../src/operator/load.js';
import { runFlowops } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'pipeline-cli-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const OPERATOR = file(
  'operator.yaml',
  `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: {name: chain}
spec:
  controllers:
    - name: to-view
      sources: [{apiGroup: "", kind: Pod, namespace: default}]
      pipeline:
        "@project":
          metadata: {name: "$.metadata.name", namespace: "$.metadata.namespace"}
          spec: {containers: {"@len": ["$.spec.containers"]}}
      target: {kind: PodInfo}
    - name: to-configmap
      sources: [{kind: PodInfo}]
      pipeline:
        "@project":
          metadata: {name: {"@concat": ["$.metadata.name", "-info"]}, namespace: "$.metadata.namespace"}
          data: {containers: {"@string": "$.spec.containers"}}
      target: {apiGroup: "", kind: ConfigMap}
`,
);

const INPUT = file(
  'input.yaml',
  `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: web, namespace: default}
  spec: {containers: [{name: a, image: x}, {name: b, image: y}]}
- apiVersion: v1
  kind: Pod
  metadata: {name: elsewhere, namespace: other}
  spec: {containers: [{name: a, image: x}]}
`,
);

async function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = runFlowops(args);
  const { code } = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

describe('flowops pipeline', () => {
  it('eval prints what each controller produces, chaining views in dependency order', async () => {
    const r = await run(['pipeline', 'eval', '--operator', OPERATOR, '--input', INPUT]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# chain/to-view -> PodInfo chain.view.dcontroller.io/v1alpha1 (Updater): 1 object(s)');
    expect(r.stdout).toContain('# chain/to-configmap -> ConfigMap v1 (Updater): 1 object(s)');
    const docs = parseAllDocuments(r.stdout)
      .map((d) => d.toJS() as Record<string, unknown> | null)
      .filter(Boolean);
    expect(docs).toContainEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'web-info', namespace: 'default' },
      data: { containers: '2' },
    });
  });

  it('eval reports a broken pipeline as an error of that controller', async () => {
    const bad = file(
      'bad.yaml',
      'apiVersion: dcontroller.io/v1alpha1\nkind: Operator\nmetadata: {name: bad}\nspec:\n  controllers:\n  - {name: c, sources: [{apiGroup: "", kind: Pod}], pipeline: {"@dummmy": 1}, target: {kind: V}}\n',
    );
    const [result] = await dryRun(loadOperators(bad), loadObjects(INPUT));
    expect(result).toMatchObject({
      operator: 'bad',
      controller: 'c',
      target: { kind: 'V', isView: true, type: 'Updater' },
    });
    expect(result!.error).toMatch(/@dummmy/);
    expect(result!.outputs).toBeUndefined();
  });

  it('graph prints a Mermaid flowchart of controllers, sources, views and targets', async () => {
    const r = await run(['pipeline', 'graph', '--operator', OPERATOR]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        'flowchart LR',
        '  subgraph op_chain["Operator chain"]',
        '    ctl_chain_0[["to-view"]]',
        '    ctl_chain_1[["to-configmap"]]',
        '  end',
        '  res_core_Pod[("Pod (core)")]',
        '  view_chain_view_dcontroller_io_PodInfo("view PodInfo")',
        '  res_core_ConfigMap[("ConfigMap (core)")]',
        '  res_core_Pod --> ctl_chain_0',
        '  ctl_chain_0 -->|Updater| view_chain_view_dcontroller_io_PodInfo',
        '  view_chain_view_dcontroller_io_PodInfo --> ctl_chain_1',
        '  ctl_chain_1 -->|Updater| res_core_ConfigMap',
        '',
      ].join('\n'),
    );
  });
});
