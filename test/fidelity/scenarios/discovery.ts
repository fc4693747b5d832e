import { get, type Scenario } from '../scenario.js';

// Discovery (legacy and aggregated), /version and the OpenAPI documents (their shape only: the
// schemas are another piece of work).

const AGGREGATED = { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' };
const groupVersions = [
  'apps/v1',
  'batch/v1',
  'autoscaling/v2',
  'policy/v1',
  'networking.k8s.io/v1',
  'coordination.k8s.io/v1',
  'scheduling.k8s.io/v1',
  'rbac.authorization.k8s.io/v1',
  'apiextensions.k8s.io/v1',
  'fidelity.flowops.io/v1',
];
const d = (name: string, path: string, more: Parameters<typeof get>[1] = {}): Scenario => ({
  name: `discovery: ${name}`,
  noNamespace: true,
  steps: [get(path, more)],
});

export const DISCOVERY_SCENARIOS: Scenario[] = [
  d('/api', '/api'),
  d('/api/v1', '/api/v1'),
  d('/apis', '/apis'),
  d('/apis group names', '/apis', { select: 'groups' }),
  ...groupVersions.map((gv) => d(`/apis/${gv}`, `/apis/${gv}`)),
  ...[...new Set(groupVersions.map((gv) => gv.split('/')[0]!))].map((g) => d(`/apis/${g}`, `/apis/${g}`)),
  d('aggregated /api', '/api', { headers: AGGREGATED }),
  d('aggregated /apis', '/apis', { headers: AGGREGATED }),
  d('/apis/apps/v1 deployments entry', '/apis/apps/v1', { select: 'resources.0' }),
  d('/version major and minor', '/version', {
    ignore: [
      'gitCommit',
      'gitTreeState',
      'buildDate',
      'goVersion',
      'compiler',
      'platform',
      'emulationMajor',
      'emulationMinor',
      'minCompatibilityMajor',
      'minCompatibilityMinor',
    ],
  }),
  d('/healthz', '/healthz', { headers: { Accept: '*/*' } }),
  d('/readyz', '/readyz', { headers: { Accept: '*/*' } }),
  d('/livez', '/livez', { headers: { Accept: '*/*' } }),
  d('unknown path', '/nonsense'),
  { name: 'openapi: /openapi/v2 shape', noNamespace: true, steps: [get('/openapi/v2', { shape: true })] },
  {
    name: 'openapi: /openapi/v2 swagger version',
    noNamespace: true,
    steps: [get('/openapi/v2', { select: 'swagger' })],
  },
  { name: 'openapi: /openapi/v2 info', noNamespace: true, steps: [get('/openapi/v2', { select: 'info' })] },
  {
    name: 'openapi: /openapi/v3 index shape',
    noNamespace: true,
    steps: [get('/openapi/v3', { select: 'paths.api/v1', shape: true })],
  },
  {
    name: 'openapi: /openapi/v3 index group-versions',
    noNamespace: true,
    steps: [get('/openapi/v3', { select: 'paths', shape: true })],
  },
  {
    name: 'openapi: /openapi/v3 api/v1 document shape',
    noNamespace: true,
    steps: [get('/openapi/v3/api/v1', { shape: true })],
  },
  {
    name: 'openapi: /openapi/v3 apps/v1 document shape',
    noNamespace: true,
    steps: [get('/openapi/v3/apis/apps/v1', { shape: true })],
  },
];
