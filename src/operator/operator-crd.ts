import type { CustomResourceDefinition, StructuralSchema } from '../api/index.js';
import { OPERATOR_GROUP, OPERATOR_KIND, OPERATOR_VERSION } from './types.js';

const OPEN: StructuralSchema = { 'x-kubernetes-preserve-unknown-fields': true };
const str = (description: string): StructuralSchema => ({ type: 'string', description });

const resource: Record<string, StructuralSchema> = {
  apiGroup: str('API group; missing means a view of this operator, "" the core group.'),
  version: str('Version; defaults to the preferred version (views: v1alpha1).'),
  kind: str('Kind.'),
};

const source: StructuralSchema = {
  type: 'object',
  required: ['kind'],
  properties: {
    ...resource,
    type: str('Watcher (default), OneShot or Periodic.'),
    namespace: str('Watcher: only objects in this namespace.'),
    labelSelector: { type: 'object', description: 'Watcher: a metav1.LabelSelector.', ...OPEN },
    predicate: {
      description:
        'Watcher: GenerationChanged, ResourceVersionChanged, LabelChanged, AnnotationChanged, or And/Or/Not of them.',
      ...OPEN,
    },
    parameters: { type: 'object', description: 'Periodic: {"period": "<duration>"}.', ...OPEN },
  },
};

const controller: StructuralSchema = {
  type: 'object',
  required: ['name', 'sources', 'target'],
  properties: {
    name: str('Unique within the operator.'),
    sources: { type: 'array', minItems: 1, items: source },
    pipeline: { description: 'A declarative pipeline: a stage or a list of stages.', ...OPEN },
    target: {
      type: 'object',
      required: ['kind'],
      properties: {
        ...resource,
        type: {
          type: 'string',
          enum: ['Updater', 'Patcher'],
          description: 'Updater (default) replaces, Patcher patches.',
        },
      },
    },
  },
};

/**
 * The CRD for operators.dcontroller.io, cluster-scoped as in the original (spec §1.1). Written by
 * hand rather than from zod: pipelines and predicates are schemaless, and the Go CRD's shape is
 * what existing Operator manifests were written against.
 */
export function operatorCrd(): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `operators.${OPERATOR_GROUP}` },
    spec: {
      group: OPERATOR_GROUP,
      names: {
        kind: OPERATOR_KIND,
        listKind: `${OPERATOR_KIND}List`,
        plural: 'operators',
        singular: 'operator',
        categories: ['dcontroller'],
      },
      scope: 'Cluster',
      versions: [
        {
          name: OPERATOR_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description:
                'A declarative operator: controllers that turn watched resources into target resources through pipelines.',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: {
                  type: 'object',
                  required: ['controllers'],
                  properties: {
                    controllers: { type: 'array', minItems: 1, maxItems: 255, items: controller },
                    // FlowOps' addition: the identity its controllers read and write with (an Operator is
                    // cluster-scoped, so the ServiceAccount's namespace is named too).
                    serviceAccountName: {
                      type: 'string',
                      description:
                        "Watch sources and write targets as this ServiceAccount (impersonation), not with FlowOps' rights.",
                    },
                    serviceAccountNamespace: { type: 'string', description: 'The namespace of serviceAccountName.' },
                  },
                },
                status: { type: 'object', ...OPEN },
              },
              required: ['spec'],
            },
          },
        },
      ],
    },
  };
}
