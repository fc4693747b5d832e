import { describe, expect, it } from 'vitest';
import {
  PatchError,
  strategicMergePatch,
  supportsStrategicMerge,
  type JsonObject,
} from '../../src/apiserver/patch/strategic/index.js';

const DEPLOYMENT = { group: 'apps', version: 'v1', kind: 'Deployment' };
const POD = { group: '', version: 'v1', kind: 'Pod' };

function liveDeployment(): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'default',
      labels: { app: 'web' },
      finalizers: ['example.com/a', 'example.com/b'],
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"old":true}' },
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.25',
              ports: [
                { containerPort: 80, protocol: 'TCP' },
                { containerPort: 443, protocol: 'TCP' },
              ],
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
            },
            { name: 'sidecar', image: 'busybox', args: ['sleep', '3600'] },
          ],
          tolerations: [{ key: 'a', operator: 'Exists' }],
        },
      },
    },
  };
}

/** `expected` is built from the live object so each test states only what changes. */
function edit(f: (d: any) => void): JsonObject {
  const d = liveDeployment();
  f(d);
  return d;
}

describe('strategicMergePatch: what kubectl apply sends for a Deployment', () => {
  it('adds a container, deletes one, changes an env var, removes a port and reorders with $setElementOrder', () => {
    const patch: JsonObject = {
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"new":true}' } },
      spec: {
        replicas: 3,
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'logger' }, { name: 'nginx' }],
            containers: [
              { image: 'fluent-bit:2', name: 'logger' },
              {
                '$setElementOrder/env': [{ name: 'A' }, { name: 'B' }],
                '$setElementOrder/ports': [{ containerPort: 80 }],
                env: [{ name: 'B', value: '3' }],
                image: 'nginx:1.26',
                name: 'nginx',
                ports: [{ $patch: 'delete', containerPort: 443 }],
              },
              { $patch: 'delete', name: 'sidecar' },
            ],
          },
        },
      },
    };
    const expected = edit((d) => {
      d.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] = '{"new":true}';
      d.spec.replicas = 3;
      d.spec.template.spec.containers = [
        { image: 'fluent-bit:2', name: 'logger' },
        {
          name: 'nginx',
          image: 'nginx:1.26',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '3' },
          ],
        },
      ];
    });
    const result = strategicMergePatch(liveDeployment(), patch, DEPLOYMENT);
    expect(result).toEqual(expected);
    expect(result.spec).toEqual(expected.spec); // key order aside, structure is exact
    expect(JSON.stringify(result)).not.toContain('$');
  });

  it('reorders containers with $setElementOrder alone', () => {
    const patch = {
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'nginx' }] } } },
    };
    const result = strategicMergePatch(liveDeployment(), patch, DEPLOYMENT) as any;
    expect(result.spec.template.spec.containers.map((c: JsonObject) => c.name)).toEqual(['sidecar', 'nginx']);
    expect(result).toEqual(edit((d) => d.spec.template.spec.containers.reverse()));
  });

  it('removes a finalizer with $deleteFromPrimitiveList and keeps the rest in order', () => {
    const patch = {
      metadata: {
        '$setElementOrder/finalizers': ['example.com/b'],
        '$deleteFromPrimitiveList/finalizers': ['example.com/a'],
      },
    };
    expect(strategicMergePatch(liveDeployment(), patch, DEPLOYMENT)).toEqual(
      edit((d) => {
        d.metadata.finalizers = ['example.com/b'];
      }),
    );
  });

  it('adds finalizers as a set union, in the order the real server produces', () => {
    const patch = { metadata: { finalizers: ['example.com/c', 'example.com/a'] } };
    const result = strategicMergePatch(liveDeployment(), patch, DEPLOYMENT) as any;
    expect(result).toEqual(
      edit((d) => {
        // Patch items keep the patch's order and come before live-only items they precede.
        d.metadata.finalizers = ['example.com/c', 'example.com/a', 'example.com/b'];
      }),
    );
  });

  it('switches the strategy to Recreate with $retainKeys, dropping rollingUpdate', () => {
    const patch = { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: null, type: 'Recreate' } } };
    expect(strategicMergePatch(liveDeployment(), patch, DEPLOYMENT)).toEqual(
      edit((d) => {
        d.spec.strategy = { type: 'Recreate' };
      }),
    );
  });

  it('$retainKeys clears live keys even when the patch does not null them', () => {
    const patch = { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } };
    expect((strategicMergePatch(liveDeployment(), patch, DEPLOYMENT) as any).spec.strategy).toEqual({
      type: 'Recreate',
    });
  });

  it('$patch: replace on a map replaces it wholesale', () => {
    const live = edit((d) => {
      d.spec.selector.matchExpressions = [{ key: 'tier', operator: 'Exists' }];
    });
    const patch = { spec: { selector: { $patch: 'replace', matchLabels: { app: 'web2' } } } };
    expect(strategicMergePatch(live, patch, DEPLOYMENT)).toEqual(
      edit((d) => {
        d.spec.selector = { matchLabels: { app: 'web2' } };
      }),
    );
  });

  it('$patch: replace as a list element replaces the whole list with the other elements', () => {
    const patch: JsonObject = {
      spec: { template: { spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'alpine' }] } } },
    };
    expect(strategicMergePatch(liveDeployment(), patch, DEPLOYMENT)).toEqual(
      edit((d) => {
        d.spec.template.spec.containers = [{ name: 'only', image: 'alpine' }];
      }),
    );
  });

  it('$patch: delete on a map removes it; at the root it empties the object', () => {
    const patch = { spec: { strategy: { $patch: 'delete' } } };
    expect(strategicMergePatch(liveDeployment(), patch, DEPLOYMENT)).toEqual(
      edit((d) => {
        delete d.spec.strategy;
      }),
    );
    expect(strategicMergePatch(liveDeployment(), { $patch: 'delete' }, DEPLOYMENT)).toEqual({});
  });

  it('$patch: merge on a map is the ordinary merge', () => {
    const patch = { spec: { strategy: { $patch: 'merge', type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } } };
    expect(strategicMergePatch(liveDeployment(), patch, DEPLOYMENT)).toEqual(
      edit((d) => {
        d.spec.strategy.rollingUpdate.maxSurge = 1;
      }),
    );
  });
});

describe('strategicMergePatch: plain kubectl patch -p (no directives)', () => {
  it('merges containers by name and keeps the ones the patch does not mention', () => {
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } };
    expect(strategicMergePatch(liveDeployment(), patch, DEPLOYMENT)).toEqual(
      edit((d) => {
        d.spec.template.spec.containers[0].image = 'nginx:1.27';
      }),
    );
  });

  it('puts a new container first, as the real server does without $setElementOrder', () => {
    const patch = { spec: { template: { spec: { containers: [{ name: 'debug', image: 'alpine' }] } } } };
    const result = strategicMergePatch(liveDeployment(), patch, DEPLOYMENT) as any;
    expect(result.spec.template.spec.containers.map((c: JsonObject) => c.name)).toEqual(['debug', 'nginx', 'sidecar']);
  });

  it('merges env by name and ports by containerPort inside a container', () => {
    const patch = {
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'nginx', env: [{ name: 'C', value: '9' }], ports: [{ containerPort: 80, name: 'http' }] },
            ],
          },
        },
      },
    };
    const c = (strategicMergePatch(liveDeployment(), patch, DEPLOYMENT) as any).spec.template.spec.containers[0];
    expect(c.env).toEqual([
      { name: 'C', value: '9' },
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
    expect(c.ports).toEqual([
      { containerPort: 80, protocol: 'TCP', name: 'http' },
      { containerPort: 443, protocol: 'TCP' },
    ]);
  });

  it('replaces lists without a merge key (args, tolerations)', () => {
    const patch = {
      spec: {
        template: {
          spec: {
            containers: [{ name: 'sidecar', args: ['sleep', '1'] }],
            tolerations: [{ key: 'b', operator: 'Exists' }],
          },
        },
      },
    };
    const result = strategicMergePatch(liveDeployment(), patch, DEPLOYMENT) as any;
    expect(result.spec.template.spec.containers[1].args).toEqual(['sleep', '1']);
    expect(result.spec.template.spec.tolerations).toEqual([{ key: 'b', operator: 'Exists' }]);
  });

  it('null deletes a key; nulls inside new values never reach the object', () => {
    const patch = { metadata: { labels: { app: null, tier: 'web' } }, spec: { paused: { reason: null, since: 1 } } };
    const result = strategicMergePatch(liveDeployment(), patch, DEPLOYMENT) as any;
    expect(result.metadata.labels).toEqual({ tier: 'web' });
    expect(result.spec.paused).toEqual({ since: 1 });
  });

  it('merges Pod spec containers, Service ports by port and ownerReferences by uid', () => {
    const pod = {
      metadata: { name: 'p', ownerReferences: [{ uid: 'u1', name: 'rs-1', kind: 'ReplicaSet' }] },
      spec: { containers: [{ name: 'a', image: 'x' }] },
    };
    const result = strategicMergePatch(
      pod,
      {
        metadata: { ownerReferences: [{ uid: 'u1', controller: true }] },
        spec: { containers: [{ name: 'a', image: 'y' }] },
      },
      POD,
    );
    expect(result).toEqual({
      metadata: { name: 'p', ownerReferences: [{ uid: 'u1', name: 'rs-1', kind: 'ReplicaSet', controller: true }] },
      spec: { containers: [{ name: 'a', image: 'y' }] },
    });

    const svc: JsonObject = { spec: { ports: [{ port: 80, targetPort: 8080 }, { port: 443 }] } };
    expect(
      strategicMergePatch(
        svc,
        { spec: { ports: [{ port: 443, targetPort: 8443 }] } },
        { group: '', version: 'v1', kind: 'Service' },
      ),
    ).toEqual({
      spec: {
        ports: [
          { port: 80, targetPort: 8080 },
          { port: 443, targetPort: 8443 },
        ],
      },
    });
  });

  it('merges maps like a merge patch for map-only kinds (ConfigMap)', () => {
    const cm = { metadata: { name: 'c' }, data: { a: '1', b: '2' } };
    expect(
      strategicMergePatch(cm, { data: { b: null, c: '3' } }, { group: '', version: 'v1', kind: 'ConfigMap' }),
    ).toEqual({
      metadata: { name: 'c' },
      data: { a: '1', c: '3' },
    });
  });

  it('follows the directives kubectl sent for a list the built-in table does not know', () => {
    const ingress: JsonObject = { spec: { rules: [{ host: 'a', http: { paths: [] } }, { host: 'b' }] } };
    const patch = {
      spec: { '$setElementOrder/rules': [{ host: 'b' }, { host: 'a' }], rules: [{ host: 'b', http: { paths: [] } }] },
    };
    expect(strategicMergePatch(ingress, patch, { group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' })).toEqual(
      {
        spec: {
          rules: [
            { host: 'b', http: { paths: [] } },
            { host: 'a', http: { paths: [] } },
          ],
        },
      },
    );
  });

  it('never mutates its inputs', () => {
    const live = liveDeployment();
    const patch: JsonObject = {
      spec: {
        template: {
          spec: {
            containers: [
              { $patch: 'delete', name: 'sidecar' },
              { name: 'nginx', image: 'x' },
            ],
          },
        },
      },
    };
    const liveCopy = structuredClone(live);
    const patchCopy = structuredClone(patch);
    const result = strategicMergePatch(live, patch, DEPLOYMENT) as any;
    expect(live).toEqual(liveCopy);
    expect(patch).toEqual(patchCopy);
    result.spec.template.spec.containers[0].env[0].value = 'changed';
    expect(live).toEqual(liveCopy);
  });
});

describe('strategicMergePatch: invalid directives', () => {
  const patchOf = (spec: JsonObject) => () => strategicMergePatch(liveDeployment(), { spec }, DEPLOYMENT);

  it('rejects an unknown $patch value', () => {
    expect(patchOf({ strategy: { $patch: 'explode' } })).toThrow(PatchError);
    expect(patchOf({ strategy: { $patch: 'explode' } })).toThrow(/unknown patch type: "explode"/);
  });

  it('rejects a delete directive without the merge key', () => {
    expect(patchOf({ template: { spec: { containers: [{ $patch: 'delete', image: 'x' }] } } })).toThrow(
      /does not contain declared merge key: name/,
    );
  });

  it('rejects $patch: merge as a list element', () => {
    expect(patchOf({ template: { spec: { containers: [{ $patch: 'merge' }] } } })).toThrow(
      /merging lists cannot yet be specified/,
    );
  });

  it('rejects keys outside $retainKeys (422) and a non-list $retainKeys (400)', () => {
    const mismatch = (): JsonObject =>
      patchOf({ strategy: { $retainKeys: ['type'], rollingUpdate: { maxSurge: 1 } } })();
    expect(mismatch).toThrow("patch content doesn't match retainKeys list");
    try {
      mismatch();
    } catch (e) {
      expect((e as PatchError).code).toBe(422);
    }
    try {
      patchOf({ strategy: { $retainKeys: 'type' } })();
    } catch (e) {
      expect(e).toBeInstanceOf(PatchError);
      expect((e as PatchError).code).toBe(400);
    }
  });

  it('rejects malformed $setElementOrder and $deleteFromPrimitiveList', () => {
    expect(patchOf({ template: { spec: { '$setElementOrder/containers': 'nginx' } } })).toThrow(
      'invalid patch format of setElementOrder list',
    );
    expect(() =>
      strategicMergePatch(liveDeployment(), { metadata: { '$deleteFromPrimitiveList/finalizers': 'x' } }, DEPLOYMENT),
    ).toThrow('invalid patch format of primitive list');
  });

  it('treats a directive name without a field as a malformed directive, not as data', () => {
    expect(patchOf({ template: { spec: { $setElementOrder: [] } } })).toThrow(
      'invalid patch format of setElementOrder list',
    );
    expect(() =>
      strategicMergePatch(liveDeployment(), { metadata: { $deleteFromPrimitiveList: [] } }, DEPLOYMENT),
    ).toThrow('invalid patch format of primitive list');
  });

  it('rejects a patch list whose order contradicts $setElementOrder', () => {
    expect(
      patchOf({
        template: {
          spec: {
            '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'sidecar' }],
            containers: [
              { name: 'sidecar', image: 'a' },
              { name: 'nginx', image: 'b' },
            ],
          },
        },
      }),
    ).toThrow(/doesn't match \$setElementOrder list/);
  });
});

describe('supportsStrategicMerge', () => {
  it('accepts built-in groups, CRD objects included, and refuses custom resource groups', () => {
    expect(supportsStrategicMerge({ group: '', version: 'v1', kind: 'ConfigMap' })).toBe(true);
    expect(supportsStrategicMerge(DEPLOYMENT)).toBe(true);
    expect(supportsStrategicMerge({ group: 'batch', version: 'v1', kind: 'Job' })).toBe(true);
    expect(supportsStrategicMerge({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' })).toBe(true);
    expect(supportsStrategicMerge({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' })).toBe(true);
    expect(
      supportsStrategicMerge({ group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' }),
    ).toBe(true);
    expect(supportsStrategicMerge({ group: 'example.com', version: 'v1', kind: 'Widget' })).toBe(false);
    expect(supportsStrategicMerge({ group: 'gateway.networking.k8s.io', version: 'v1', kind: 'Gateway' })).toBe(false);
  });
});
