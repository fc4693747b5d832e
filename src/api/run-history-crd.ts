import { crdSchemaOf, flowopsCrd, type CustomResourceDefinition, type PrinterColumn } from './crd.js';
import { RUNHISTORY_KIND, RUNHISTORY_PLURAL } from './names.js';
import { runHistorySchema } from './run-history.js';

const LAST = '.status.runs[0]';

/** `kubectl get runs`: each watched object's last run at a glance. */
const COLUMNS: PrinterColumn[] = [
  { name: 'Kind', type: 'string', jsonPath: '.spec.object.kind' },
  { name: 'Object', type: 'string', jsonPath: '.spec.object.name' },
  { name: 'Flow', type: 'string', jsonPath: '.spec.flow' },
  { name: 'Last-Run', type: 'string', jsonPath: `${LAST}.outcome`, description: 'Outcome of the newest run' },
  { name: 'Duration', type: 'string', jsonPath: `${LAST}.duration` },
  { name: 'Ran', type: 'date', jsonPath: `${LAST}.startTime` },
  { name: 'Revision', type: 'string', jsonPath: `${LAST}.revision`, priority: 1 },
  { name: 'Runs', type: 'integer', jsonPath: '.status.total', priority: 1 },
];

/**
 * The CRD for runhistories.flowops.io. No status subresource: FlowOps alone writes a record, in
 * one apply, and nobody's spec is at stake.
 */
export function runHistoryCrd(): CustomResourceDefinition {
  return flowopsCrd({
    kind: RUNHISTORY_KIND,
    plural: RUNHISTORY_PLURAL,
    singular: 'runhistory',
    shortNames: ['runs'],
    columns: COLUMNS,
    statusSubresource: false,
    schema: crdSchemaOf(
      runHistorySchema,
      'The last runs of one object a Flow watches: outcome, duration, commit, and every step, newest first.',
    ),
  });
}
