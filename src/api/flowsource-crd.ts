import { crdSchemaOf, flowopsCrd, type CustomResourceDefinition, type PrinterColumn } from './crd.js';
import { FLOWSOURCE_KIND, FLOWSOURCE_PLURAL, flowSourceSchema } from './flowsource.js';

const READY = '.status.conditions[?(@.type=="Ready")]';

const COLUMNS: PrinterColumn[] = [
  { name: 'URL', type: 'string', jsonPath: '.spec.url' },
  { name: 'Revision', type: 'string', jsonPath: '.status.lastAppliedRevision', description: 'The commit that is live' },
  { name: 'Ready', type: 'string', jsonPath: `${READY}.status` },
  { name: 'Status', type: 'string', jsonPath: `${READY}.message`, priority: 1 },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** The CRD for flowsources.flowops.io: namespaced, like Flux's GitRepository, so RBAC and Secrets stay per team. */
export function flowSourceCrd(): CustomResourceDefinition {
  return flowopsCrd({
    kind: FLOWSOURCE_KIND,
    plural: FLOWSOURCE_PLURAL,
    singular: 'flowsource',
    shortNames: ['fs'],
    columns: COLUMNS,
    schema: crdSchemaOf(
      flowSourceSchema,
      'A FlowSource is a Git repository folder whose Flows and objects FlowOps applies, commit by commit, with provenance.',
    ),
  });
}
