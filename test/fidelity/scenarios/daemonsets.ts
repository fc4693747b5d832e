import { MERGE_PATCH, get, patch, post, put, setup, type Scenario } from '../scenario.js';

// A DaemonSet's deprecated.daemonset.template.generation annotation: apps/v1's view of the internal
// spec.templateGeneration, which daemonSetStrategy.PrepareForUpdate bumps with the generation when
// the template changes, and which an update reads from the body it is sent.

const SETS = '/apis/apps/v1/namespaces/{ns}/daemonsets';
const set = (image: string, metadata: Record<string, unknown> = { name: 'd' }) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata,
  spec: {
    selector: { matchLabels: { app: 'd' } },
    template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image }] } },
  },
});
const GENERATION = 'deprecated.daemonset.template.generation';

const putCases: Array<[string, string, Record<string, string> | undefined]> = [
  ['a template change with the annotation as read', 'nginx:1.28', { [GENERATION]: '1' }],
  ['a template change without the annotation', 'nginx:1.28', undefined],
  ['no template change without the annotation', 'nginx:1.27', undefined],
  ['no template change with another generation', 'nginx:1.27', { [GENERATION]: '7' }],
];

export const DAEMONSET_SCENARIOS: Scenario[] = [
  ...putCases.map(
    ([what, image, annotations]): Scenario => ({
      name: `daemonsets: update, ${what}`,
      steps: [
        setup(post(SETS, set('nginx:1.27'))),
        setup(get(`${SETS}/d`, { capture: { rv: 'metadata.resourceVersion' } })),
        put(`${SETS}/d`, set(image, { name: 'd', resourceVersion: '${rv}', ...(annotations ? { annotations } : {}) }), {
          select: 'metadata',
        }),
      ],
    }),
  ),
  {
    name: 'daemonsets: merge patch of the image',
    steps: [
      setup(post(SETS, set('nginx:1.27'))),
      patch(
        `${SETS}/d`,
        MERGE_PATCH,
        { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.28' }] } } } },
        { select: 'metadata' },
      ),
    ],
  },
];
