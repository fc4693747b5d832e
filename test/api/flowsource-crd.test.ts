import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCrdYaml } from '../../src/api/crd.js';
import { flowSourceCrd } from '../../src/api/flowsource-crd.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { ROOT } from '../helpers/cli.js';
import { kubectlFor } from '../helpers/kubectl.js';

describe('the generated FlowSource CRD', () => {
  it('is what config/crd holds (run `npm run gen:crds` after changing a schema)', () => {
    expect(readFileSync(join(ROOT, 'config/crd/flowops.io_flowsources.yaml'), 'utf8')).toBe(
      renderCrdYaml(flowSourceCrd()),
    );
    expect(readFileSync(join(ROOT, 'config/crd/kustomization.yaml'), 'utf8')).toContain(
      '- flowops.io_flowsources.yaml',
    );
  });

  it('describes spec and status', () => {
    const schema = flowSourceCrd().spec.versions[0]!.schema.openAPIV3Schema;
    expect(Object.keys(schema.properties!.spec!.properties!)).toEqual([
      'url',
      'oci',
      'ref',
      'path',
      'interval',
      'secretRef',
      'webhookSecretRef',
      'verify',
      'decryption',
      'previews',
      'suspend',
      'serviceAccountName',
      'prune',
    ]);
    // url or oci: the controller's schema says which is missing (InvalidSpec), the CRD requires neither.
    expect(schema.properties!.spec!.required).toBeUndefined();
    const oci = schema.properties!.spec!.properties!.oci!;
    expect(Object.keys(oci.properties!)).toEqual(['url', 'ref', 'secretRef', 'insecure', 'verify']);
    expect(Object.keys(schema.properties!.status!.properties!)).toEqual([
      'observedGeneration',
      'conditions',
      'lastAppliedRevision',
      'lastAttemptedRevision',
      'lastVerifiedCommit',
      'inventory',
      'skipped',
      'history',
      'commits',
      'lastHandledReconcileAt',
    ]);
    expect(JSON.stringify(schema)).not.toMatch(/\$ref|anyOf|oneOf|allOf/);
  });
});

describe('the FlowSource CRD on the embedded API server', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
    const res = await fetch(`${ts.server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(flowSourceCrd()),
    });
    expect(res.status).toBe(201);
  });
  afterAll(async () => ts?.stop());

  it('shows URL, revision, Ready and age to kubectl, and rejects a non-HTTP URL', async () => {
    const kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
    const source = {
      apiVersion: 'flowops.io/v1',
      kind: 'FlowSource',
      metadata: { name: 'flows', namespace: 'default' },
      spec: { url: 'http://127.0.0.1:1/flows.git', ref: { branch: 'main' } },
    };
    await kubectl.ok(['apply', '-f', '-'], JSON.stringify(source));
    const sha = 'a'.repeat(40);
    const status = {
      lastAppliedRevision: `main@sha1:${sha}`,
      conditions: [
        { type: 'Ready', status: 'True', reason: 'Applied', message: 'ok', lastTransitionTime: '2026-01-01T00:00:00Z' },
      ],
    };
    const put = await fetch(`${ts.server.url}/apis/flowops.io/v1/namespaces/default/flowsources/flows/status`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ status }),
    });
    expect(put.status).toBe(200);
    const out = await kubectl.ok(['get', 'fs']);
    expect(out.split('\n')[0]).toMatch(/^NAME\s+URL\s+REVISION\s+READY\s+AGE$/);
    expect(out).toMatch(new RegExp(`flows\\s+http://127\\.0\\.0\\.1:1/flows\\.git\\s+main@sha1:${sha}\\s+True`));
    const bad = await kubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        ...source,
        metadata: { name: 'ssh', namespace: 'default' },
        spec: { url: 'git@github.com:x/y.git' },
      }),
    );
    expect(bad.code).not.toBe(0);
  });
});
