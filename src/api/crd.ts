import { stringify } from 'yaml';
import { z } from 'zod';
import { FLOW_GROUP, FLOW_KIND, FLOW_PLURAL, FLOW_VERSION, flowSchema } from './flow.js';
import { toStructuralSchema, type StructuralSchema } from './structural.js';

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

/** The parts of apiextensions.k8s.io/v1 CustomResourceDefinition that FlowOps writes. */
export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; annotations?: Record<string, string> };
  spec: {
    group: string;
    names: {
      kind: string;
      listKind: string;
      plural: string;
      singular: string;
      shortNames?: string[];
      categories?: string[];
    };
    scope: 'Namespaced' | 'Cluster';
    versions: Array<{
      name: string;
      served: boolean;
      storage: boolean;
      subresources?: { status?: Record<string, never> };
      additionalPrinterColumns?: PrinterColumn[];
      schema: { openAPIV3Schema: StructuralSchema };
    }>;
  };
}

const READY = '.status.conditions[?(@.type=="Ready")]';

const FLOW_COLUMNS: PrinterColumn[] = [
  { name: 'Watched', type: 'string', jsonPath: '.spec.watch.kind', description: 'The kind this Flow reconciles' },
  { name: 'Ready', type: 'string', jsonPath: `${READY}.status` },
  {
    name: 'Resources',
    type: 'integer',
    jsonPath: '.status.resources.watched',
    description: 'Resources of the watched kind currently known',
  },
  {
    name: 'Children-Ready',
    type: 'integer',
    jsonPath: '.status.resources.ready',
    description: 'Watched objects whose last run succeeded and whose children are all ready',
  },
  {
    name: 'Rollout',
    type: 'string',
    jsonPath: '.status.rollout.state',
    description: 'The state of spec.rollout: Progressing, Paused, Halted, RolledBack, Aborted or Complete',
  },
  {
    name: 'Stage',
    type: 'integer',
    jsonPath: '.status.rollout.currentStage',
    description: 'The rollout stage being worked on (0-based)',
    priority: 1,
  },
  { name: 'Status', type: 'string', jsonPath: `${READY}.message`, priority: 1 },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/**
 * The openAPIV3Schema of a FlowOps kind, generated from its zod schema. The top-level fields the
 * API server owns are written the way controller-gen writes them: Kubernetes validates metadata
 * itself and allows a CRD to say almost nothing about it.
 */
export function crdSchemaOf(schema: z.ZodType, description: string): StructuralSchema {
  const generated = toStructuralSchema(
    z.toJSONSchema(schema, { io: 'input', target: 'openapi-3.0', reused: 'inline', cycles: 'throw' }),
  );
  const { apiVersion: _v, kind: _k, metadata: _m, ...rest } = generated.properties ?? {};
  return {
    description,
    type: 'object',
    properties: {
      apiVersion: {
        description: 'APIVersion defines the versioned schema of this representation of an object.',
        type: 'string',
      },
      kind: {
        description: 'Kind is a string value representing the REST resource this object represents.',
        type: 'string',
      },
      metadata: { type: 'object' },
      ...rest,
    },
    required: ['spec'],
  };
}

/**
 * The CRD for flows.flowops.io.
 *
 * Namespaced, like Flux's Kustomization: a Flow lives beside the team that owns it, RBAC on Flows
 * can be granted per namespace, and its status and Events land in that namespace. The scope of a
 * Flow says nothing about what it watches — an empty `spec.watch.namespace` still watches the
 * kind in every namespace — so the seed's cluster-wide operators keep working.
 */
export function flowCrd(): CustomResourceDefinition {
  return flowopsCrd({
    kind: FLOW_KIND,
    plural: FLOW_PLURAL,
    singular: 'flow',
    shortNames: ['fl'],
    columns: FLOW_COLUMNS,
    schema: crdSchemaOf(
      flowSchema,
      'A Flow turns a watched Kubernetes kind into a managed resource: FlowOps runs its steps to reconcile each object of that kind.',
    ),
  });
}

/** A namespaced flowops.io/v1 CRD with a status subresource: the shape every FlowOps kind shares. */
export function flowopsCrd(o: {
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  columns: PrinterColumn[];
  statusSubresource?: boolean;
  schema: CustomResourceDefinition['spec']['versions'][number]['schema']['openAPIV3Schema'];
}): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${o.plural}.${FLOW_GROUP}` },
    spec: {
      group: FLOW_GROUP,
      names: {
        kind: o.kind,
        listKind: `${o.kind}List`,
        plural: o.plural,
        singular: o.singular,
        shortNames: o.shortNames,
        categories: ['flowops'],
      },
      scope: 'Namespaced',
      versions: [
        {
          name: FLOW_VERSION,
          served: true,
          storage: true,
          ...(o.statusSubresource === false ? {} : { subresources: { status: {} } }),
          additionalPrinterColumns: o.columns,
          schema: { openAPIV3Schema: o.schema },
        },
      ],
    },
  };
}

const HEADER =
  '# Generated by `npm run gen:crds` (scripts/gen-crds.ts) from the zod schemas in src/api/. Do not edit.\n';

/** The YAML committed under config/crd/; a test compares the two so they cannot drift. */
export function renderCrdYaml(crd: CustomResourceDefinition): string {
  return HEADER + stringify(crd, { lineWidth: 0 });
}
