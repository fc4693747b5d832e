import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { formatValidationError, validateFlowFile } from '../../src/api/validate.js';
import { runValidate } from '../../src/cli/validate-run.js';
import { planCommit } from '../../src/sync/plan.js';
import { checkFlow, SchemaRegistry, typecheckFiles } from '../../src/typecheck/index.js';
import { CRDS, expectedFindings, INVALID, inlineDocuments, ROOT, VALID, yamlFiles } from './corpus.js';

function validate(...paths: string[]): { code: number; stdout: string; stderr: string[] } {
  let stdout = '';
  const stderr: string[] = [];
  const code = runValidate(paths, { stdout: (t) => (stdout += t), stderr: (t) => stderr.push(t.trimEnd()) });
  return { code, stdout, stderr };
}

const read = (path: string): { path: string; text: string } => ({ path, text: readFileSync(path, 'utf8') });
const flowText = (watch: string, steps: string): string => `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: bounded }
spec:
  watch: ${watch}
  reconcile:
    steps:
${steps}`;

describe('the type check on a corpus of Flows with one mistake each', () => {
  it.each(yamlFiles(INVALID).map((f) => basename(f)))(
    '%s is refused at its file:line:column with its message',
    (name) => {
      const file = join(INVALID, name);
      const r = validate(file, CRDS);
      const want = expectedFindings(file);
      expect(want).toHaveLength(1);
      expect(r.stderr.map((l) => l.replace(`${file}:`, ''))).toEqual(want);
      // A warning is printed, but leaves the exit code 0.
      expect(r.code).toBe(want.every((w) => / warning: /.test(w)) ? 0 : 1);
    },
  );
});

describe('no false alarms', () => {
  it('passes the corpus of correct Flows (guards, narrowing, kinds without a schema, deep ranges)', () => {
    expect(validate(VALID, CRDS)).toEqual({
      code: 0,
      stdout: `${yamlFiles(VALID).length + 1} files, ${yamlFiles(VALID).length} Flows, 0 errors\n`,
      stderr: [],
    });
  });

  it('passes every Flow of repos-example (the README walks through these), each checked against its CRD', () => {
    const r = validate(join(ROOT, 'repos-example'));
    expect(r.stderr).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/, 4 Flows, 0 errors\n$/);
    // Not vacuous: every watched kind has its schema from the CRDs beside it.
    const files = ['database-operator', 'webapp-operator', 'webhook-notifier', 'config-bundle'].map((d) =>
      join(ROOT, 'repos-example', d),
    );
    const registry = new SchemaRegistry(
      files.flatMap((d) =>
        parseAllDocuments(readFileSync(join(d, 'crd.yaml'), 'utf8')).map((doc) => doc.toJS() as unknown),
      ),
    );
    for (const d of files) {
      const flow = parseAllDocuments(readFileSync(join(d, 'flow.yaml'), 'utf8'))[0]?.toJS() as {
        spec: { watch: { apiVersion: string; kind: string } };
      };
      expect(registry.schemaOf(flow.spec.watch.apiVersion, flow.spec.watch.kind), d).toBeDefined();
    }
  });

  it('passes the valid fixture Flows of test/ (YAML files and the Flows tests write inline), with their CRDs', () => {
    const files = [
      ...['database-flow.yaml', 'all-steps-flow.yaml'].map((f) => read(join(ROOT, 'test/api/fixtures', f))),
      ...yamlFiles(join(ROOT, 'test/cli/fixtures/render')).map(read),
    ];
    const inline = inlineDocuments();
    const valid = inline.flows.filter((f) => {
      const v = validateFlowFile(f.text, f.path);
      return v.flows > 0 && v.errors.length === 0;
    });
    expect(valid.length).toBeGreaterThanOrEqual(10);
    const context = [read(join(ROOT, 'test/api/fixtures/database-crd.yaml')), ...inline.crds];
    expect(typecheckFiles([...files, ...valid], context).map(formatValidationError)).toEqual([]);
  });
});

describe('bounded on bad schemas and templates', () => {
  it('reads a recursive schema lazily: a 200-deep walk and a typo at its end', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node.properties as Record<string, unknown>).next = node;
    (node.properties as Record<string, unknown>).value = { type: 'string' };
    const crd = {
      kind: 'CustomResourceDefinition',
      spec: {
        group: 'example.com',
        names: { kind: 'Loop' },
        versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', properties: { spec: node } } } }],
      },
    };
    const registry = new SchemaRegistry([crd]);
    expect(registry.schemaOf('example.com/v1', 'Loop')).toBeDefined();
    const chain = '.next'.repeat(200);
    const flow = parseAllDocuments(
      flowText(
        '{ apiVersion: example.com/v1, kind: Loop }',
        `      - name: s\n        type: script\n        script: echo "{{ .Resource.spec${chain}.valeu }}"\n`,
      ),
    )[0]?.toJS() as unknown;
    // Past the depth the checker follows, the type is unknown: no finding, no hang, no stack overflow.
    expect(checkFlow(flow, registry).filter((p) => p.severity === 'error')).toEqual([]);
    const short = parseAllDocuments(
      flowText(
        '{ apiVersion: example.com/v1, kind: Loop }',
        `      - name: s\n        type: script\n        script: echo "{{ .Resource.spec.next.next.valeu }}"\n`,
      ),
    )[0]?.toJS() as unknown;
    expect(
      checkFlow(short, registry)
        .filter((p) => p.severity === 'error')
        .map((p) => p.message),
    ).toEqual(['unknown field "spec.next.next.valeu" in Loop; did you mean "value"?']);
  });

  it('finds a typo in a 1 MB CRD schema and says "type unknown" (no finding) for an invalid one', () => {
    const props = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`field${i}`, { type: 'string', description: 'x'.repeat(20) }]),
    );
    const big = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'bigs.example.com' },
      spec: {
        group: 'example.com',
        names: { kind: 'Big', plural: 'bigs' },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', required: ['field7'], properties: props } },
              },
            },
          },
        ],
      },
    };
    const bigText = JSON.stringify(big, null, 1);
    expect(bigText.length).toBeGreaterThan(1_000_000);
    const flow = flowText(
      '{ apiVersion: example.com/v1, kind: Big }',
      `      - name: s\n        type: script\n        script: echo "{{ .Resource.spec.fieldd7 }}"\n`,
    );
    const found = typecheckFiles([{ path: 'f.yaml', text: flow }], [{ path: 'big.yaml', text: bigText }]);
    expect(found.map((f) => f.message)).toEqual(['unknown field "spec.fieldd7" in Big; did you mean "field7"?']);

    const invalid = [
      '"not a schema"',
      '{ type: 7, properties: [1, 2] }',
      '{ type: object, properties: { spec: { $ref: "#/nowhere" } } }',
      '{ type: object, properties: { spec: { type: object, required: 3, properties: { a: 5 } } } }',
    ];
    for (const schema of invalid) {
      const crdText = [
        'apiVersion: apiextensions.k8s.io/v1',
        'kind: CustomResourceDefinition',
        'metadata: { name: odds.example.com }',
        'spec:',
        '  group: example.com',
        '  names: { kind: Odd, plural: odds }',
        `  versions: [{ name: v1, schema: { openAPIV3Schema: ${schema} } }]`,
        '',
      ].join('\n');
      const odd = flowText(
        '{ apiVersion: example.com/v1, kind: Odd }',
        '      - name: s\n        type: script\n' +
          '        script: echo "{{ .Resource.spec.a.b }} {{ range .Resource.spec.a }}{{ end }}"\n',
      );
      expect(
        typecheckFiles([{ path: 'f.yaml', text: odd }], [{ path: 'crd.yaml', text: crdText }]).filter(
          (f) => f.severity === 'error',
        ),
        schema,
      ).toEqual([]);
    }
  });

  it('checks a manifest applying a recursive built-in schema (a CRD whose JSONSchemaProps refer to themselves)', () => {
    // Twenty levels of properties, each a JSONSchemaProps (a $ref cycle in kube-apiserver's document), a typo
    // at the bottom.
    const level = (i: number, indent: string): string =>
      i === 20
        ? `${indent}typo: 1`
        : `${indent}type: object\n${indent}properties:\n${indent}  x${i}:\n${level(i + 1, `${indent}    `)}`;
    const nested = level(0, '                    ');
    const steps = `      - name: crd
        type: kubectl
        action: apply
        manifests: |
          apiVersion: apiextensions.k8s.io/v1
          kind: CustomResourceDefinition
          metadata: { name: "{{ .Resource.metadata.name }}.example.com" }
          spec:
            group: example.com
            scope: Namespaced
            names: { kind: Thing, plural: things }
            versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
${nested}
`;
    const found = typecheckFiles(
      [{ path: 'f.yaml', text: flowText('{ apiVersion: example.com/v1, kind: Store }', steps) }],
      [read(CRDS)],
    );
    expect(found.map((f) => f.message)).toEqual([
      expect.stringMatching(
        /^CustomResourceDefinition spec\.versions\[0\]\.schema\.openAPIV3Schema(\.properties\.x\d+)+\.typo: unknown/,
      ),
    ]);
  });
});

describe('a Git commit', () => {
  const flow = read(join(INVALID, 'manifest-literal-type.yaml'));
  const crds = read(CRDS);

  it('is rejected whole for a type error, at file:line:column', () => {
    const plan = planCommit({
      files: [crds, { path: 'store/flow.yaml', text: flow.text }],
      removed: [],
      full: true,
      inventory: [],
      defaultNamespace: 'default',
    });
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.errors.map(formatValidationError)).toEqual([`store/flow.yaml:${expectedFindings(flow.path)[0]}`]);
  });

  it('takes the CRD from the rest of the commit, and is applied with a warning only', () => {
    const text = readFileSync(join(INVALID, 'maybe-absent.yaml'), 'utf8');
    const plan = planCommit({
      files: [{ path: 'flow.yaml', text }],
      removed: [],
      full: false,
      inventory: [],
      defaultNamespace: 'default',
      context: [crds],
    });
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.warnings.map(formatValidationError)).toEqual([
      `flow.yaml:${expectedFindings(join(INVALID, 'maybe-absent.yaml'))[0]}`,
    ]);
    expect(plan.apply.map((d) => d.object.kind)).toEqual(['Flow']);
  });
});

describe('flowops render', () => {
  it('renders nothing for a Flow with a type error, naming file:line:column', async () => {
    const { runRender } = await import('../../src/cli/render-run.js');
    const file = join(INVALID, 'resource-field-typo.yaml');
    const err: string[] = [];
    const code = await runRender(
      [file, CRDS],
      { objects: [file], timeout: '30s', now: '2025-01-01T00:00:00Z' },
      { stdout: () => undefined, stderr: (t) => err.push(t) },
    );
    expect(code).toBe(2);
    expect(err.join('')).toContain(`${relative(ROOT, file) === file ? file : file}:${expectedFindings(file)[0]}`);
  });
});
