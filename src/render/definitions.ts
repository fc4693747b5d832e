// The CRDs and Flows a render runs, read from files and checked with the same code as
// `flowops validate`, so a Flow that would be rejected there (or by the GitOps sync) is rejected
// here with the same `file:line: field: problem`.

import { readFileSync } from 'node:fs';
import { isMap, parseAllDocuments } from 'yaml';
import { FLOW_API_VERSION, FLOW_KIND, validateParsedFlowFile, type ValidationError } from '../api/index.js';
import type { KubeObject } from '../kube/index.js';
import { typecheckFiles, type SourceFile } from '../typecheck/index.js';
import { findYamlFiles } from '../util/yaml-files.js';

export interface FlowFile {
  flow: KubeObject;
  /** The file it was read from (relative chart and kustomize paths are found from here). */
  file: string;
  /** The file's text: errors are reported at its lines. */
  text: string;
}

export interface Definitions {
  crds: KubeObject[];
  flows: FlowFile[];
  errors: ValidationError[];
  /** The type check's warnings; its errors are in `errors`. */
  warnings: ValidationError[];
}

const problem = (file: string, message: string): ValidationError => ({ file, line: 0, column: 0, field: '', message });

/** Every CRD and Flow in the YAML under `paths`; other objects there (samples, Secrets) are not loaded. */
export function readDefinitions(paths: readonly string[]): Definitions {
  const found = findYamlFiles(paths);
  const out: Definitions = {
    crds: [],
    flows: [],
    errors: found.missing.map((m) => problem(m.path, m.message)),
    warnings: [],
  };
  const read: SourceFile[] = [];
  const wellFormed: SourceFile[] = [];
  for (const file of found.files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      out.errors.push(problem(file, (e as Error).message));
      continue;
    }
    const checked = validateParsedFlowFile(text, file);
    out.errors.push(...checked.errors);
    const source: SourceFile = { path: file, text, parsed: checked.parsed };
    read.push(source);
    if (checked.errors.length) continue;
    if (checked.flows > 0) wellFormed.push(source);
    for (const doc of parseAllDocuments(text, { merge: true })) {
      if (!isMap(doc.contents)) continue;
      const obj = doc.toJS() as KubeObject;
      if (obj.kind === 'CustomResourceDefinition' && obj.apiVersion === 'apiextensions.k8s.io/v1') out.crds.push(obj);
      else if (obj.kind === FLOW_KIND && (obj.apiVersion ?? FLOW_API_VERSION) === FLOW_API_VERSION)
        out.flows.push({ flow: obj, file, text });
    }
  }
  // The same type check as `flowops validate`: a Flow that validate refuses is not rendered either.
  for (const f of typecheckFiles(
    wellFormed,
    read.filter((r) => !wellFormed.includes(r)),
  ))
    (f.severity === 'error' ? out.errors : out.warnings).push(f);
  return out;
}
