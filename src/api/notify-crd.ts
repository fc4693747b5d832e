import { crdSchemaOf, flowopsCrd, type CustomResourceDefinition, type PrinterColumn } from './crd.js';
import { ALERT_KIND, ALERT_PLURAL, PROVIDER_KIND, PROVIDER_PLURAL } from './names.js';
import { alertSchema, providerSchema } from './notify.js';

const READY = '.status.conditions[?(@.type=="Ready")]';

const PROVIDER_COLUMNS: PrinterColumn[] = [
  { name: 'Type', type: 'string', jsonPath: '.spec.type' },
  { name: 'Ready', type: 'string', jsonPath: `${READY}.status` },
  { name: 'Status', type: 'string', jsonPath: `${READY}.message`, priority: 1 },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

const ALERT_COLUMNS: PrinterColumn[] = [
  { name: 'Provider', type: 'string', jsonPath: '.spec.providerRef.name' },
  { name: 'Severity', type: 'string', jsonPath: '.spec.eventSeverity' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

/** providers.flowops.io: where FlowOps' notifications and commit statuses go. */
export function providerCrd(): CustomResourceDefinition {
  return flowopsCrd({
    kind: PROVIDER_KIND,
    plural: PROVIDER_PLURAL,
    singular: 'provider',
    shortNames: ['fprov'],
    columns: PROVIDER_COLUMNS,
    schema: crdSchemaOf(
      providerSchema,
      'A Provider is where FlowOps sends notifications: a webhook, chat, Alertmanager, Grafana, ' +
        'or commit statuses on a forge.',
    ),
  });
}

/** alerts.flowops.io: which events go to a Provider. */
export function alertCrd(): CustomResourceDefinition {
  return flowopsCrd({
    kind: ALERT_KIND,
    plural: ALERT_PLURAL,
    singular: 'alert',
    shortNames: ['falert'],
    columns: ALERT_COLUMNS,
    schema: crdSchemaOf(
      alertSchema,
      'An Alert sends the events of the FlowSources, Flows and watched objects it selects to a Provider.',
    ),
  });
}
