import type { Scenario } from '../scenario.js';
import { CRUD_SCENARIOS } from './crud.js';
import { DELETE_SCENARIOS } from './deletes.js';
import { DISCOVERY_SCENARIOS } from './discovery.js';
import { ERROR_SCENARIOS } from './errors.js';
import { FUZZ_FOUND_SCENARIOS } from './fuzz-found.js';
import { MISC_SCENARIOS } from './misc.js';
import { NODE_SCENARIOS } from './nodes.js';
import { POINTER_SCENARIOS } from './pointers.js';
import { QUERY_SCENARIOS } from './queries.js';
import { RESOURCE_SCENARIOS } from './resources.js';
import { SELECTOR_SCENARIOS } from './selectors.js';
import { DAEMONSET_SCENARIOS } from './daemonsets.js';
import { POD_STATUS_SCENARIOS, STATEFULSET_SCENARIOS } from './statefulsets.js';
import { SUBRESOURCE_SCENARIOS } from './subresources.js';

/** Every fidelity scenario, in a stable order (the index names each scenario's namespace). */
export const SCENARIOS: Scenario[] = [
  ...CRUD_SCENARIOS,
  ...SUBRESOURCE_SCENARIOS,
  ...ERROR_SCENARIOS,
  ...SELECTOR_SCENARIOS,
  ...QUERY_SCENARIOS,
  ...DELETE_SCENARIOS,
  ...MISC_SCENARIOS,
  ...DISCOVERY_SCENARIOS,
  ...FUZZ_FOUND_SCENARIOS,
  ...RESOURCE_SCENARIOS,
  ...NODE_SCENARIOS,
  ...STATEFULSET_SCENARIOS,
  ...DAEMONSET_SCENARIOS,
  ...POD_STATUS_SCENARIOS,
  ...POINTER_SCENARIOS,
];

const seen = new Set<string>();
for (const s of SCENARIOS) {
  if (seen.has(s.name)) throw new Error(`two fidelity scenarios are named "${s.name}"`);
  seen.add(s.name);
}
