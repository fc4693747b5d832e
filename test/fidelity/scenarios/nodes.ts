import { del, get, post, put, setup, type Scenario } from '../scenario.js';

// A Node's create and update (ValidateNode, ValidateNodeUpdate): taints, quantities, podCIDRs and
// the fields an update may not move; each case one mistake, so that the whole Status is compared.

const NODES = '/api/v1/nodes';
const node = (name: string, spec: Record<string, unknown> = {}, status?: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  spec,
  ...(status ? { status } : {}),
});

const createCases: Array<[string, Record<string, unknown>, Record<string, unknown>?]> = [
  ['a taint without an effect', { taints: [{ key: 'a' }] }],
  ['a taint of an unknown effect', { taints: [{ key: 'a', effect: 'Sometimes' }] }],
  ['a taint with a bad key', { taints: [{ key: 'a b', effect: 'NoSchedule' }] }],
  [
    'a taint given twice',
    {
      taints: [
        { key: 'a', effect: 'NoSchedule' },
        { key: 'a', value: 'x', effect: 'NoSchedule' },
      ],
    },
  ],
  ['a podCIDR that is no CIDR', { podCIDR: '10.0.0.0' }],
  ['two podCIDRs of one family', { podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] }],
  ['podCIDR and podCIDRs that differ', { podCIDR: '10.2.0.0/24', podCIDRs: ['10.3.0.0/24'] }],
  [
    'an address listed twice (allowed on create)',
    {},
    {
      addresses: [
        { type: 'InternalIP', address: '10.0.0.1' },
        { type: 'InternalIP', address: '10.0.0.1' },
      ],
    },
  ],
  ['a dual-stack pair', { podCIDRs: ['10.4.0.0/24', 'fd00::/64'] }],
  ['a negative capacity', {}, { capacity: { cpu: '-1' } }],
  ['pods capacity that is not whole', {}, { allocatable: { pods: '1500m' } }],
  ['a status given on create, allocatable defaulted', {}, { capacity: { cpu: '2', pods: '110' } }],
];

const updateCases: Array<[string, Record<string, unknown>]> = [
  ['podCIDR changed', { podCIDR: '10.9.0.0/24', externalID: 'e', providerID: 'p' }],
  ['externalID changed', { podCIDR: '10.8.0.0/24', externalID: 'f', providerID: 'p' }],
  ['providerID changed', { podCIDR: '10.8.0.0/24', externalID: 'e', providerID: 'q' }],
  [
    'taints added',
    { podCIDR: '10.8.0.0/24', externalID: 'e', providerID: 'p', taints: [{ key: 'a', effect: 'NoExecute' }] },
  ],
];

export const NODE_SCENARIOS: Scenario[] = [
  ...createCases.map(
    ([what, spec, status], i): Scenario => ({
      name: `nodes: create, ${what}`,
      noNamespace: true,
      steps: [
        post(NODES, node(`fid-node-${i}`, spec, status), { ignore: ['metadata'] }),
        setup(del(`${NODES}/fid-node-${i}`)),
      ],
    }),
  ),
  ...updateCases.map(
    ([what, spec], i): Scenario => ({
      name: `nodes: update, ${what}`,
      noNamespace: true,
      steps: [
        setup(post(NODES, node(`fid-node-u${i}`, { podCIDR: '10.8.0.0/24', externalID: 'e', providerID: 'p' }))),
        setup(get(`${NODES}/fid-node-u${i}`, { capture: { rv: 'metadata.resourceVersion' } })),
        put(
          `${NODES}/fid-node-u${i}`,
          { ...node(`fid-node-u${i}`, spec), metadata: { name: `fid-node-u${i}`, resourceVersion: '${rv}' } },
          { select: 'spec' },
        ),
        setup(del(`${NODES}/fid-node-u${i}`)),
      ],
    }),
  ),
  {
    name: 'nodes: status update, an address listed twice and a negative allocatable',
    noNamespace: true,
    steps: [
      setup(post(NODES, node('fid-node-s'))),
      setup(get(`${NODES}/fid-node-s`, { capture: { rv: 'metadata.resourceVersion' } })),
      put(`${NODES}/fid-node-s/status`, {
        ...node(
          'fid-node-s',
          {},
          {
            allocatable: { memory: '-1Gi' },
            addresses: [
              { type: 'Hostname', address: 'h' },
              { type: 'Hostname', address: 'h' },
            ],
          },
        ),
        metadata: { name: 'fid-node-s', resourceVersion: '${rv}' },
      }),
      setup(del(`${NODES}/fid-node-s`)),
    ],
  },
];
