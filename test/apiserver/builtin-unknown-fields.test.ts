import { describe, expect, it } from 'vitest';
import { dropUnknownFields } from '../../src/apiserver/openapi/builtin-fields.js';
import { vendoredOpenApi } from '../../src/apiserver/openapi/vendored.js';
import type { JsonObject } from '../../src/apiserver/registry/types.js';

const check = (group: string, kind: string, obj: JsonObject): { unknown: string[]; obj: JsonObject } => {
  const s = vendoredOpenApi.kindSchema(group, 'v1', kind)!;
  return { unknown: dropUnknownFields(obj, s.root, s.schemas), obj };
};

describe('unknown fields of built-in kinds, by kube-apiserver’s schemas', () => {
  it('finds them through $refs, arrays and maps, drops them, and keeps everything declared', () => {
    const { unknown, obj } = check('apps', 'Deployment', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', labels: { any: 'label' }, bogus: 1 },
      spec: {
        replicas: 1,
        template: {
          spec: { containers: [{ name: 'a', image: 'i', imagee: 'x', resources: { limits: { cpu: '1' } } }] },
        },
      },
      extra: true,
    });
    expect(unknown).toEqual(['extra', 'metadata.bogus', 'spec.template.spec.containers[0].imagee']);
    expect(obj).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', labels: { any: 'label' } },
      spec: {
        replicas: 1,
        template: { spec: { containers: [{ name: 'a', image: 'i', resources: { limits: { cpu: '1' } } }] } },
      },
    });
  });

  it('keeps a field named description (PriorityClass) and free-form values (a CRD’s default, RawExtension-like)', () => {
    expect(
      check('scheduling.k8s.io', 'PriorityClass', {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'p' },
        value: 1,
        description: 'kept',
      }).unknown,
    ).toEqual([]);
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'a.b.c' },
      spec: {
        group: 'b.c',
        names: { plural: 'a', kind: 'A' },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                default: { anything: { goes: 1 } },
                properties: { x: { type: 'string', description: 'd' } },
              },
            },
          },
        ],
      },
    };
    expect(check('apiextensions.k8s.io', 'CustomResourceDefinition', crd).unknown).toEqual([]);
  });
});
