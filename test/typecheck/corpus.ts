import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const TYPECHECK_FIXTURES = join(import.meta.dirname, 'fixtures');
export const INVALID = join(TYPECHECK_FIXTURES, 'invalid');
export const VALID = join(TYPECHECK_FIXTURES, 'valid');
export const CRDS = join(TYPECHECK_FIXTURES, 'crds.yaml');
export const ROOT = join(import.meta.dirname, '..', '..');

/** Each invalid fixture states its findings in `# expect: LINE:COLUMN: field: problem` comments. */
export function expectedFindings(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((l) => {
      const m = /^# expect: (.*)$/.exec(l);
      return m?.[1] ? [m[1]] : [];
    });
}

export function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(dir, f));
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

/**
 * The Flows and CRDs the other tests write inline, as template literals: `${…}` parts are
 * replaced by a plain word, which keeps every such Flow readable as YAML.
 */
export function inlineDocuments(): {
  flows: Array<{ path: string; text: string }>;
  crds: Array<{ path: string; text: string }>;
  operators: Array<{ path: string; text: string }>;
} {
  const flows: Array<{ path: string; text: string }> = [];
  const crds: Array<{ path: string; text: string }> = [];
  const operators: Array<{ path: string; text: string }> = [];
  for (const file of tsFiles(join(ROOT, 'test'))) {
    if (file.includes(`${join('test', 'typecheck')}`)) continue;
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/`([^`]*)`/g)) {
      const text = (m[1] ?? '').replace(/\$\{[^}]*\}/g, 'x');
      const path = `${file}:${src.slice(0, m.index).split('\n').length}`;
      if (/^kind: Flow\b/m.test(text) && text.includes('flowops.io/v1')) flows.push({ path, text });
      else if (/^kind: CustomResourceDefinition\b/m.test(text)) crds.push({ path, text });
      else if (/^kind: Operator\b/m.test(text) && text.includes('dcontroller.io/')) operators.push({ path, text });
    }
  }
  return { flows, crds, operators };
}
