import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { formatValidationError } from '../../src/api/validate.js';
import { checkObject, formatFinding } from '../../src/admission-webhook/object-checks.js';
import { runValidate } from '../../src/cli/validate-run.js';
import { planCommit } from '../../src/sync/plan.js';
import { SchemaRegistry, typecheckFiles } from '../../src/typecheck/index.js';
import { OPERATOR } from '../fixtures/seed-operator.js';
import { CRDS, inlineDocuments, ROOT, TYPECHECK_FIXTURES } from './corpus.js';

const MISSPELLED = join(TYPECHECK_FIXTURES, 'operators', 'misspelled.yaml');
const DCONTROLLER = join(ROOT, 'test/fixtures/dcontroller/endpointslice-controller');
const read = (path: string): { path: string; text: string } => ({ path, text: readFileSync(path, 'utf8') });
const at = (line: number, column: number, rest: string): string =>
  `${relative(ROOT, MISSPELLED)}:${line}:${column}: ${rest}`;

/** Each misspelled path of the fixture, at the field that is not there, with the nearest name. */
const EXPECTED = [
  at(
    12,
    29,
    `spec.controllers[0].pipeline[0]["@select"]["@eq"][0]: ` +
      `unknown field "spec.typo" in Service; did you mean "type"?`,
  ),
  at(
    15,
    32,
    `spec.controllers[0].pipeline[1]["@project"].metadata.name: ` +
      `unknown field "metadata.nme" in Service; did you mean "name"?`,
  ),
  at(21, 32, `spec.controllers[0].pipeline[3]["@project"].port: unknown field "prot" in Service; did you mean "port"?`),
  at(
    23,
    27,
    `spec.controllers[0].pipeline[3]["@project"].other: ` +
      `unknown field "spec.selector" in the output of pipeline[1]`,
  ),
  at(
    33,
    52,
    `spec.controllers[1].pipeline[0]["@join"]["@eq"][1]: ` +
      `unknown field "Podd" in the joined sources; did you mean "Pod"?`,
  ),
  at(
    37,
    30,
    `spec.controllers[1].pipeline[1]["@project"].node: ` +
      `unknown field "spec.nodeNam" in Pod; did you mean "nodeName"?`,
  ),
  at(
    45,
    22,
    `spec.controllers[2].pipeline["@unwind"]: ` +
      `unknown field "endpointz" in EndpointSlice; did you mean "endpoints"?`,
  ),
];

function validate(...paths: string[]): { code: number; stderr: string[] } {
  const stderr: string[] = [];
  const code = runValidate(paths, { stdout: () => undefined, stderr: (t) => stderr.push(t.trimEnd()) });
  return { code, stderr };
}

describe("an Operator's pipeline expressions, checked against its sources' schemas", () => {
  it('flowops validate: each misspelled field at file:line:column, through @select, @project, @unwind, @join', () => {
    const relativePaths = validate(relative(ROOT, MISSPELLED));
    // runValidate names files as given: run from the repository root, as CI does.
    expect(process.cwd()).toBe(ROOT);
    expect(relativePaths.stderr).toEqual(EXPECTED);
    expect(relativePaths.code).toBe(1);
  });

  it('a Git commit holding the Operator is rejected whole; the other files of it apply nothing', () => {
    const plan = planCommit({
      files: [{ path: relative(ROOT, MISSPELLED), text: readFileSync(MISSPELLED, 'utf8') }],
      removed: [],
      full: true,
      inventory: [],
      defaultNamespace: 'default',
    });
    expect(plan.ok).toBe(false);
    expect(plan.ok ? [] : plan.errors.map(formatValidationError)).toEqual(EXPECTED);
  });

  it('the admission webhook refuses it naming the field (no positions: there is no file)', () => {
    const obj = parseAllDocuments(readFileSync(MISSPELLED, 'utf8'))[0]?.toJS() as Record<string, unknown>;
    const found = checkObject({ group: 'dcontroller.io', kind: 'Operator' }, obj, new SchemaRegistry([]));
    expect(found.map(formatFinding)).toEqual(EXPECTED.map((e) => e.replace(/^[^:]+:\d+:\d+: /, '')));
  });

  it("checks a source of a CRD's kind against the CRD; a version not given is the CRD's first", () => {
    const op = `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: { name: stores }
spec:
  controllers:
    - name: s
      sources: [{ apiGroup: example.com, kind: Store }]
      pipeline: { "@project": { metadata: { name: $.metadata.name }, size: $.spec.storage.sise } }
      target: { kind: StoreView }
`;
    const files = [{ path: 'op.yaml', text: op }];
    expect(typecheckFiles(files, [read(CRDS)]).map(formatValidationError)).toEqual([
      'op.yaml:8:91: spec.controllers[0].pipeline["@project"].size: unknown field "spec.storage.sise" in Store; ' +
        'did you mean "size"?',
    ]);
    // Without the CRD the kind has no schema: nothing is claimed.
    expect(typecheckFiles(files)).toEqual([]);
  });

  it('a pipeline Flow and a pipeline step are checked against the watched kind', () => {
    const flow = `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: piped }
spec:
  watch: { apiVersion: apps/v1, kind: Deployment }
  pipeline:
    "@project": { metadata: { name: $.metadata.name }, replicas: $.spec.replica }
  target: { kind: DeploymentView }
---
apiVersion: flowops.io/v1
kind: Flow
metadata: { name: stepped }
spec:
  watch: { apiVersion: apps/v1, kind: Deployment }
  reconcile:
    steps:
      - name: count
        type: pipeline
        expression: { "@len": ["$.spec.template.spec.containerz"] }
`;
    expect(typecheckFiles([{ path: 'f.yaml', text: flow }]).map(formatValidationError)).toEqual([
      'f.yaml:7:73: spec.pipeline["@project"].replicas: unknown field "spec.replica" in Deployment; ' +
        'did you mean "replicas"?',
      'f.yaml:19:54: spec.reconcile.steps[0].expression["@len"][0]: unknown field ' +
        '"spec.template.spec.containerz" in Deployment; did you mean "containers"?',
    ]);
  });
});

describe('no false alarms on Operators', () => {
  it("passes the dcontroller fixtures, the seed README's Operator and every Operator tests write inline", () => {
    const inline = inlineDocuments().operators;
    expect(inline.length).toBeGreaterThanOrEqual(5);
    const gather = stringify({
      apiVersion: 'dcontroller.io/v1alpha1',
      kind: 'Operator',
      metadata: { name: 'ep-gather' },
      spec: parse(readFileSync(join(DCONTROLLER, 'endpointslice-controller-gather-spec.yaml'), 'utf8')) as unknown,
    });
    const files = [
      read(join(DCONTROLLER, 'endpointslice-operator.yaml')),
      { path: 'endpointslice-controller-gather-spec.yaml', text: gather },
      { path: 'seed-operator.yaml', text: OPERATOR },
      ...inline,
    ];
    expect(typecheckFiles(files).map(formatValidationError)).toEqual([]);
  });

  it('says nothing about views, kinds of no schema, $$ elements, filters and what a @gather makes', () => {
    const op = `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: { name: unknowns }
spec:
  controllers:
    - name: u
      sources: [{ kind: SomeView }, { apiGroup: nowhere.example.org, kind: Thing }, { apiGroup: "", kind: Pod }]
      pipeline:
        - "@join": { "@eq": ["$.SomeView.anything.at.all", "$.Thing.spec.whatever"] }
        - "@select": { "@exists": '$.Pod.spec.containers[?(@.name == "x")].imagez' }
        - "@project":
            metadata: { name: { "@concat": ["$.Pod.metadata.name", "-", "$.SomeView.x"] } }
            names: { "@map": ["$$.name", "$.Pod.spec.containers"] }
        - "@gather": ["$.metadata.name", "$.names"]
        - "@project": { metadata: { name: $.metadata.name }, any: $.whatever.follows }
      target: { kind: Out }
`;
    expect(typecheckFiles([{ path: 'u.yaml', text: op }]).map(formatValidationError)).toEqual([]);
  });
});

describe('bounded on bad Operators', () => {
  it('an expression nested 5,000 deep and a path 300 deep into a recursive schema: no hang, no crash', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node.properties as Record<string, unknown>).next = node;
    const crd = {
      kind: 'CustomResourceDefinition',
      metadata: { name: 'loops.example.com' },
      spec: {
        group: 'example.com',
        names: { kind: 'Loop' },
        versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', properties: { spec: node } } } }],
      },
    };
    let deep: unknown = '$.spec.next.nxt';
    for (let i = 0; i < 5_000; i++) deep = { '@not': deep };
    const pipeline = [{ '@select': deep }, { '@select': { '@exists': `$.spec${'.next'.repeat(300)}.nxt` } }];
    const sources = [{ apiGroup: 'example.com', kind: 'Loop' }];
    const controller = { name: 'c', sources, pipeline, target: { kind: 'V' } };
    const operator = { spec: { controllers: [controller] } };
    const OPERATOR_KIND = { group: 'dcontroller.io', kind: 'Operator' };
    const found = checkObject(OPERATOR_KIND, operator, new SchemaRegistry([crd]));
    // Past the depth the walk follows, nothing is claimed (the 5,000-deep one, the 300-deep path).
    expect(found).toEqual([]);
    pipeline.push({ '@select': { '@exists': '$.spec.next.next.nxt' } });
    expect(checkObject(OPERATOR_KIND, operator, new SchemaRegistry([crd])).map(formatFinding)).toEqual([
      'spec.controllers[0].pipeline[2]["@select"]["@exists"]: unknown field "spec.next.next.nxt" in Loop; ' +
        'did you mean "next"?',
    ]);
  });
});
