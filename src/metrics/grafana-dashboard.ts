/**
 * The Grafana dashboard FlowOps ships (config/grafana, the chart's grafanaDashboard), as Flux ships
 * one per controller: reconciles, queue, steps, Git fetches, leadership and notifications. Written
 * as data here so a test can check every query names a metric FlowOps registers.
 */

interface Panel {
  title: string;
  type: 'timeseries' | 'stat';
  unit?: string;
  queries: Array<{ expr: string; legend: string }>;
}

const PANELS: Panel[] = [
  {
    title: 'Reconciles per second by result',
    type: 'timeseries',
    unit: 'ops',
    queries: [{ expr: 'sum by (result) (rate(flowops_reconcile_total[5m]))', legend: '{{result}}' }],
  },
  {
    title: 'Reconcile duration p50 / p99',
    type: 'timeseries',
    unit: 's',
    queries: [
      {
        expr: 'histogram_quantile(0.5, sum by (le) (rate(flowops_reconcile_duration_seconds_bucket[5m])))',
        legend: 'p50',
      },
      {
        expr: 'histogram_quantile(0.99, sum by (le) (rate(flowops_reconcile_duration_seconds_bucket[5m])))',
        legend: 'p99',
      },
    ],
  },
  {
    title: 'Failing reconciles by Flow',
    type: 'timeseries',
    unit: 'ops',
    queries: [{ expr: 'sum by (flow) (rate(flowops_reconcile_total{result="failure"}[5m]))', legend: '{{flow}}' }],
  },
  {
    title: 'Queue depth',
    type: 'timeseries',
    queries: [{ expr: 'sum(flowops_queue_depth)', legend: 'waiting + running' }],
  },
  {
    title: 'Step duration p99 by type',
    type: 'timeseries',
    unit: 's',
    queries: [
      {
        expr: 'histogram_quantile(0.99, sum by (le, type) (rate(flowops_step_duration_seconds_bucket[5m])))',
        legend: '{{type}}',
      },
    ],
  },
  {
    title: 'Git fetches by source and result',
    type: 'timeseries',
    unit: 'ops',
    queries: [
      {
        expr: 'sum by (source, result) (rate(flowops_git_fetch_duration_seconds_count[5m]))',
        legend: '{{source}} {{result}}',
      },
    ],
  },
  { title: 'Leader', type: 'stat', queries: [{ expr: 'max by (identity) (flowops_leader)', legend: '{{identity}}' }] },
  {
    title: 'Notifications by provider and result',
    type: 'timeseries',
    unit: 'ops',
    queries: [
      {
        expr: 'sum by (namespace, provider, result) (rate(flowops_notification_deliveries_total[5m]))',
        legend: '{{namespace}}/{{provider}} {{result}}',
      },
    ],
  },
  {
    title: 'Providers not Ready',
    type: 'stat',
    queries: [{ expr: 'count(flowops_notification_provider_ready == 0) or vector(0)', legend: 'not Ready' }],
  },
  {
    title: 'Notifications dropped (failing provider queue full)',
    type: 'timeseries',
    unit: 'ops',
    queries: [
      {
        expr: 'sum by (namespace, provider) (rate(flowops_notification_dropped_total[5m]))',
        legend: '{{namespace}}/{{provider}}',
      },
    ],
  },
];

/** Every PromQL expression of the dashboard. */
export const dashboardQueries = (): string[] => PANELS.flatMap((p) => p.queries.map((q) => q.expr));

export function grafanaDashboard(): Record<string, unknown> {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's own ${datasource} variable, resolved on import
  const datasource = { type: 'prometheus', uid: '${datasource}' };
  return {
    title: 'FlowOps',
    uid: 'flowops',
    tags: ['flowops'],
    schemaVersion: 39,
    editable: true,
    time: { from: 'now-6h', to: 'now' },
    refresh: '30s',
    templating: {
      list: [{ name: 'datasource', type: 'datasource', query: 'prometheus', label: 'Prometheus', current: {} }],
    },
    panels: PANELS.map((p, i) => ({
      id: i + 1,
      title: p.title,
      type: p.type,
      datasource,
      gridPos: { h: 8, w: 12, x: (i % 2) * 12, y: Math.floor(i / 2) * 8 },
      fieldConfig: { defaults: p.unit ? { unit: p.unit } : {}, overrides: [] },
      targets: p.queries.map((q, j) => ({
        refId: String.fromCharCode(65 + j),
        expr: q.expr,
        legendFormat: q.legend,
        datasource,
      })),
    })),
  };
}
