import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { flowCrd, renderCrdYaml } from '../../src/api/crd.js';
import { STEP_TYPES } from '../../src/api/flow.js';
import type { StructuralSchema } from '../../src/api/structural.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { ROOT } from '../helpers/cli.js';
import { kubectlFor } from '../helpers/kubectl.js';
import { FIXTURES } from './expectations.js';

const COMMITTED = join(ROOT, 'config/crd/flowops.io_flows.yaml');
const schema = (): StructuralSchema => flowCrd().spec.versions[0]!.schema.openAPIV3Schema;

function* nodes(s: StructuralSchema, path = ''): Generator<[string, StructuralSchema]> {
  yield [path, s];
  for (const [k, v] of Object.entries(s.properties ?? {})) yield* nodes(v, `${path}.${k}`);
  if (s.items) yield* nodes(s.items, `${path}[]`);
  if (s.additionalProperties) yield* nodes(s.additionalProperties, `${path}{}`);
}

describe('the generated Flow CRD', () => {
  it('is what config/crd holds (run `npm run gen:crds` after changing a schema)', () => {
    expect(readFileSync(COMMITTED, 'utf8')).toBe(renderCrdYaml(flowCrd()));
  });

  it('is structural: every node typed or preserving, no refs, no additionalProperties beside properties', () => {
    const text = JSON.stringify(schema());
    expect(text).not.toMatch(
      /\$ref|\$defs|anyOf|oneOf|allOf|"const"|propertyNames|"additionalProperties":(false|true)/,
    );
    for (const [path, s] of nodes(schema())) {
      expect(s.type !== undefined || s['x-kubernetes-preserve-unknown-fields'] === true, `${path} has a type`).toBe(
        true,
      );
      expect(s.properties && s.additionalProperties, `${path} mixes properties and additionalProperties`).toBeFalsy();
    }
  });

  it('flattens the step union into one object with type as an enum', () => {
    const step = schema().properties!.spec!.properties!.reconcile!.properties!.steps!.items!;
    expect(step.required).toEqual(['name', 'type']);
    expect(step.properties!.type).toEqual({
      type: 'string',
      enum: ['kubectl', 'script', 'template', 'http', 'pipeline'],
    });
    expect(step.properties!.type!.enum).toEqual(STEP_TYPES);
    for (const field of ['manifests', 'target', 'script', 'chart', 'path', 'url', 'expression'])
      expect(step.properties).toHaveProperty(field);
    // string-or-map: no type at all, whatever is written is kept.
    expect(step.properties!.values).toMatchObject({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(step.properties!.values).not.toHaveProperty('type');
    expect(step.properties!.env).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
    // A field two step types share carries both their descriptions.
    expect(step.properties!.outputs!.description).toMatch(/^kubectl get: .* http: /);
  });

  it('describes status the kstatus way', () => {
    const status = schema().properties!.status!;
    expect(Object.keys(status.properties!)).toEqual([
      'observedGeneration',
      'conditions',
      'resources',
      'lastError',
      'lastReconcileTime',
      'generations',
      'rollout',
    ]);
    expect(status.properties!.rollout!.properties!.state!.enum).toEqual([
      'Progressing',
      'Paused',
      'Halted',
      'RolledBack',
      'Aborted',
      'Complete',
    ]);
    expect(status.properties!.conditions).toMatchObject({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    });
    expect(status.properties!.resources!.properties!.watched).toEqual({ type: 'integer', minimum: 0 });
  });
});

describe('the Flow CRD on the embedded API server', () => {
  let ts: TestServer;
  const api = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${ts.server.url}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
    });
  const flows = '/apis/flowops.io/v1/namespaces/default/flows';
  const dbFlow = (): Record<string, any> => parse(readFileSync(join(FIXTURES, 'database-flow.yaml'), 'utf8'));

  beforeAll(async () => {
    ts = await startTestServer();
    const res = await api('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      method: 'POST',
      body: JSON.stringify(flowCrd()),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });
  afterAll(async () => ts?.stop());

  it('accepts the seed Flow and every step type', async () => {
    const all = parse(readFileSync(join(FIXTURES, 'all-steps-flow.yaml'), 'utf8')) as Record<string, any>;
    all.metadata.namespace = 'default';
    for (const flow of [dbFlow(), all]) {
      const res = await api(flows, { method: 'POST', body: JSON.stringify(flow) });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const back = (await (await api(`${flows}/everything`)).json()) as Record<string, any>;
    // Fields kept by x-kubernetes-preserve-unknown-fields survive the server's pruning.
    expect(back.spec.reconcile.steps[3].values).toEqual(all.spec.reconcile.steps[3].values);
    expect(back.spec.reconcile.steps[6].expression).toEqual({ ready: true });
  });

  it('rejects an unknown step type and a missing watch with 422', async () => {
    const badType = dbFlow();
    badType.metadata.name = 'bad-type';
    badType.spec.reconcile.steps[0].type = 'kubect';
    const r1 = await api(flows, { method: 'POST', body: JSON.stringify(badType) });
    expect(r1.status).toBe(422);
    expect(await r1.text()).toContain('spec.reconcile.steps[0].type');

    const noWatch = dbFlow();
    noWatch.metadata.name = 'no-watch';
    delete noWatch.spec.watch;
    const r2 = await api(flows, { method: 'POST', body: JSON.stringify(noWatch) });
    expect(r2.status).toBe(422);
    expect(await r2.text()).toContain('spec.watch');
  });

  it('takes status through the status subresource and shows it in the printer columns', async () => {
    const current = (await (await api(`${flows}/database-operator`)).json()) as Record<string, any>;
    current.status = {
      observedGeneration: 1,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'Reconciled',
          message: '3 of 3 reconciled',
          lastTransitionTime: '2025-01-01T00:00:00Z',
        },
      ],
      resources: { watched: 3, succeeded: 3, failed: 0, ready: 2, notReady: 1 },
    };
    const put = await api(`${flows}/database-operator/status`, { method: 'PUT', body: JSON.stringify(current) });
    expect(put.status, await put.clone().text()).toBe(200);

    const table = (await (
      await api(`${flows}/database-operator?includeObject=None`, {
        headers: { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' },
      })
    ).json()) as {
      columnDefinitions: Array<{ name: string; priority: number }>;
      rows: Array<{ cells: unknown[] }>;
    };
    expect(table.columnDefinitions.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Watched', 0],
      ['Ready', 0],
      ['Resources', 0],
      ['Children-Ready', 0],
      ['Rollout', 0],
      ['Stage', 1],
      ['Status', 1],
      ['Age', 0],
    ]);
    // No spec.rollout: ROLLOUT and STAGE are empty.
    expect(table.rows[0]!.cells.slice(0, 8)).toEqual([
      'database-operator',
      'Database',
      'True',
      3,
      2,
      null,
      null,
      '3 of 3 reconciled',
    ]);
  });

  it('is listed by the real kubectl under its short name', async () => {
    const kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
    const out = await kubectl.ok(['get', 'fl', '-o', 'wide']);
    expect(out.split('\n')[0]).toMatch(
      /^NAME\s+WATCHED\s+READY\s+RESOURCES\s+CHILDREN-READY\s+ROLLOUT\s+STAGE\s+STATUS\s+AGE$/,
    );
    expect(out).toMatch(/database-operator\s+Database\s+True\s+3\s+2\s+3 of 3 reconciled/);
  });
});
