import { send, type Target } from './http-target.js';
import { FIXTURE_GROUP } from './scenarios/kinds.js';

/**
 * The CustomResourceDefinition the custom-resource scenarios use (Widget, with status and scale
 * subresources, a default and a printer column), created on a server before the scenarios run.
 */
export const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${FIXTURE_GROUP}` },
  spec: {
    group: FIXTURE_GROUP,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        },
        additionalPrinterColumns: [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  replicas: { type: 'integer', minimum: 0 },
                  color: { type: 'string', default: 'blue', enum: ['blue', 'red'] },
                  size: { type: 'string', maxLength: 5 },
                },
                required: ['replicas'],
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

/** Creates the fixture CRD and waits (with a deadline) until its resource is served. */
export async function installFixtures(target: Target, deadlineMs = 60_000): Promise<void> {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const created = await send(target, {
    method: 'POST',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    headers,
    body: JSON.stringify(WIDGET_CRD),
    timeoutMs: 30_000,
  });
  if (created.status !== 201)
    throw new Error(`${target.name}: creating the fixture CRD answered ${created.status}: ${created.body}`);
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const list = await send(target, {
      method: 'GET',
      path: `/apis/${FIXTURE_GROUP}/v1/widgets`,
      headers,
      timeoutMs: 30_000,
    });
    if (list.status === 200) return;
    if (Date.now() > deadline)
      throw new Error(
        `${target.name}: the fixture CRD's widgets were not served within ${deadlineMs} ms (last answer ${list.status})`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}
