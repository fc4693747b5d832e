// The Grafana dashboard config/ and the chart ship: generated, the same in both, rendered by the
// real kubectl kustomize and helm, and every query names a metric FlowOps registers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/metrics/registry.js';
import { dashboardQueries, grafanaDashboard } from '../../src/metrics/grafana-dashboard.js';
import { notifyMetrics } from '../../src/notify/metrics.js';
import { ROOT } from '../helpers/cli.js';
import { find, helmTemplate, kustomize, parseManifests } from './manifests.js';

const generated = `${JSON.stringify(grafanaDashboard(), null, 2)}\n`;
const hint = 'run: npx tsx scripts/gen-grafana-dashboard.ts';

describe('the Grafana dashboard', () => {
  it('is the generated file in config/grafana and in the chart', () => {
    expect(readFileSync(join(ROOT, 'config/grafana/flowops-dashboard.json'), 'utf8'), hint).toBe(generated);
    expect(readFileSync(join(ROOT, 'charts/flowops/files/grafana/flowops-dashboard.json'), 'utf8'), hint).toBe(
      generated,
    );
  });

  it('queries only metrics FlowOps registers', async () => {
    const m = createMetrics({ defaultMetrics: false });
    notifyMetrics(m.registry);
    const registered = new Set<string>();
    for (const metric of await m.registry.getMetricsAsJSON()) {
      registered.add(metric.name);
      if (String(metric.type) === 'histogram')
        for (const s of ['_bucket', '_sum', '_count']) registered.add(`${metric.name}${s}`);
    }
    const used = new Set(dashboardQueries().flatMap((q) => q.match(/\bflowops_[a-z_]+/g) ?? []));
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((n) => !registered.has(n))).toEqual([]);
  });

  it("is a ConfigMap for Grafana's sidecar from kubectl kustomize config/grafana", () => {
    const cm = find(parseManifests(kustomize('config/grafana')), 'ConfigMap', 'flowops-grafana-dashboard');
    expect(cm.metadata.labels).toMatchObject({ grafana_dashboard: '1' });
    expect(JSON.parse(String(cm.data['flowops-dashboard.json']))).toEqual(grafanaDashboard());
  });

  it('is rendered by the chart only when grafanaDashboard.enabled', () => {
    expect(parseManifests(helmTemplate()).filter((o) => o.metadata.name.endsWith('grafana-dashboard'))).toEqual([]);
    const objs = parseManifests(
      helmTemplate(['grafanaDashboard.enabled=true', 'grafanaDashboard.namespace=monitoring']),
    );
    const cm = find(objs, 'ConfigMap', 'flowops-grafana-dashboard');
    expect(cm.metadata).toMatchObject({ namespace: 'monitoring', labels: { grafana_dashboard: '1' } });
    expect(JSON.parse(String(cm.data['flowops-dashboard.json']))).toEqual(grafanaDashboard());
  });
});
