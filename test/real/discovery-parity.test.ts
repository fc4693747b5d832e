import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServerPair, type ServerPair } from '../fidelity/servers.js';
import { describeReal } from './control-plane.js';
import { compareDiscovery, discoveryFacts, type DiscoveryDifference } from './discovery-diff.js';
import { KNOWN_DISCOVERY_DIFFERENCES } from './discovery-known-differences.js';

const show = (d: DiscoveryDifference): string =>
  `${d.key}\n  real:     ${d.real ?? '(absent)'}\n  embedded: ${d.embedded ?? '(absent)'}`;

describeReal('discovery: every group, version and resource kube-apiserver 1.34 serves by default', () => {
  let pair: ServerPair | undefined;
  let differences: DiscoveryDifference[] = [];
  beforeAll(async () => {
    pair = await startServerPair();
    differences = compareDiscovery(await discoveryFacts(pair.real), await discoveryFacts(pair.embedded));
    console.log(`discovery: ${differences.length} differences, ${KNOWN_DISCOVERY_DIFFERENCES.length} known`);
  }, 240_000);
  afterAll(async () => {
    await pair?.stop();
  }, 90_000);

  it('lists the same groups, versions, resources, verbs, shortNames, categories and scopes, but for known differences', () => {
    const known = new Set(KNOWN_DISCOVERY_DIFFERENCES.map((k) => k.key));
    expect(differences.filter((d) => !known.has(d.key)).map(show)).toEqual([]);
  });

  it('lists no known difference that has gone (the list stays truthful)', () => {
    const found = new Set(differences.map((d) => d.key));
    expect(KNOWN_DISCOVERY_DIFFERENCES.filter((k) => !found.has(k.key)).map((k) => k.key)).toEqual([]);
  });
});
