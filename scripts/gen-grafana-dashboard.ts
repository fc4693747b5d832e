// Writes config/grafana/flowops-dashboard.json and its chart copy (`npx tsx scripts/gen-grafana-dashboard.ts`).
// test/packaging/grafana-dashboard.test.ts fails when the files differ from this, or when a panel
// queries a metric FlowOps does not register.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { grafanaDashboard } from '../src/metrics/grafana-dashboard.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const text = `${JSON.stringify(grafanaDashboard(), null, 2)}\n`;
for (const file of ['config/grafana/flowops-dashboard.json', 'charts/flowops/files/grafana/flowops-dashboard.json']) {
  writeFileSync(join(root, file), text);
  process.stdout.write(`wrote ${file}\n`);
}
