// Writes config/crd/ from the zod schemas in src/api/ (`npm run gen:crds`). test/api/crd.test.ts
// fails when the committed files and the schemas disagree, so run this after changing a schema.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { flowCrd, renderCrdYaml, type CustomResourceDefinition } from '../src/api/crd.js';
import { flowSourceCrd } from '../src/api/flowsource-crd.js';
import { alertCrd, providerCrd } from '../src/api/notify-crd.js';
import { runHistoryCrd } from '../src/api/run-history-crd.js';
import { operatorCrd } from '../src/operator/operator-crd.js';

const CRD_DIR = join(dirname(fileURLToPath(import.meta.url)), '../config/crd');

// One entry per FlowOps kind.
const CRDS: Array<{ file: string; crd: () => CustomResourceDefinition }> = [
  { file: 'flowops.io_flows.yaml', crd: flowCrd },
  { file: 'flowops.io_flowsources.yaml', crd: flowSourceCrd },
  { file: 'flowops.io_runhistories.yaml', crd: runHistoryCrd },
  { file: 'flowops.io_providers.yaml', crd: providerCrd },
  { file: 'flowops.io_alerts.yaml', crd: alertCrd },
  // Δ-controller Operators; `flowops run` runs them on the leader, `flowops up` installs this itself.
  { file: 'dcontroller.io_operators.yaml', crd: operatorCrd },
];

for (const { file, crd } of CRDS) {
  writeFileSync(join(CRD_DIR, file), renderCrdYaml(crd()));
  process.stdout.write(`wrote config/crd/${file}\n`);
}
// The kustomization lists exactly the generated files, so config/default picks up a new kind.
writeFileSync(
  join(CRD_DIR, 'kustomization.yaml'),
  stringify({
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: CRDS.map((c) => c.file),
  }),
);
process.stdout.write('wrote config/crd/kustomization.yaml\n');
