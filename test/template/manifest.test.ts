// renderManifest: typed values, structure from the author's text only, and the injection corpus.
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { render, renderManifest, TemplateRenderError } from '../../src/template/index.js';

type Obj = Record<string, unknown>;

const resource = (spec: Obj): Obj => ({ Resource: { metadata: { name: 'db', namespace: 'prod' }, spec } });

const STATEFULSET = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: {{ .Resource.metadata.name }}
  namespace: {{ .Resource.metadata.namespace }}
spec:
  replicas: {{ .Resource.spec.replicas }}
  template:
    spec:
      containers:
        - name: database
          image: {{ .Resource.spec.engine }}:latest
`;

describe('renderManifest: values and types', () => {
  it('keeps numbers as numbers and concatenates embedded values as strings', () => {
    const [doc] = renderManifest(STATEFULSET, resource({ replicas: 3, engine: 'postgres' })) as Obj[];
    expect(doc).toEqual({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'prod' },
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'database', image: 'postgres:latest' }] } } },
    });
  });

  it('matches parsing the rendered text for benign values', () => {
    const data = resource({ replicas: 2, engine: 'mysql' });
    expect(renderManifest(STATEFULSET, data)).toEqual([parseYaml(render(STATEFULSET, data))]);
  });

  it('keeps the JS type of a value: strings that look like numbers, booleans or null stay strings', () => {
    const tpl =
      'a: {{ .a }}\nb: {{ .b }}\nc: {{ .c }}\nd: {{ .d }}\ne: {{ .e }}\nf: {{ .f }}\ng: "{{ .g }}"\nh: {{ .h }}\n';
    const [doc] = renderManifest(tpl, { a: '3', b: 'true', c: 'null', d: true, e: null, f: '', g: 7, h: 1.5 }) as Obj[];
    expect(doc).toEqual({ a: '3', b: 'true', c: 'null', d: true, e: null, f: '', g: '7', h: 1.5 });
  });

  it('reads literal template text as Kubernetes does (YAML 1.1: 0644 is octal)', () => {
    const [doc] = renderManifest('defaultMode: 0644\nname: {{ .n }}\n', { n: 'x' }) as Obj[];
    expect(doc).toEqual({ defaultMode: 0o644, name: 'x' });
  });

  it('supports quote, toYaml/toJson structure, nindent blocks and range-built lists', () => {
    const tpl = `kind: ConfigMap
metadata:
  labels:
    fixed: "yes"
    {{- toYaml .labels | nindent 4 }}
data:
  quoted: {{ .engine | quote }}
  json: {{ .labels | toJson }}
  script: |
    echo start
    {{- .script | nindent 4 }}
    echo end
  items:
{{- range .items }}
    - {{ . }}
{{- end }}
`;
    const [doc] = renderManifest(tpl, {
      labels: { app: 'db', tier: 'a\nb' },
      engine: 'postgres',
      script: 'line1\n  line2',
      items: ['x', 2],
    }) as Obj[];
    expect(doc).toEqual({
      kind: 'ConfigMap',
      metadata: { labels: { fixed: 'yes', app: 'db', tier: 'a\nb' } },
      data: {
        quoted: 'postgres',
        json: { app: 'db', tier: 'a\nb' },
        script: 'echo start\nline1\n  line2\necho end\n',
        items: ['x', 2],
      },
    });
  });

  it('never turns a string into structure, except through the explicit fromYaml | toYaml hatch', () => {
    const snippet = 'a: 1\nb: [x, y]';
    const asText = renderManifest('spec:\n  cfg:{{ .s | nindent 4 }}\n', { s: snippet });
    expect(asText).toEqual([{ spec: { cfg: snippet } }]);
    const asYaml = renderManifest('spec:\n  cfg:{{ .s | fromYaml | toYaml | nindent 4 }}\n', { s: snippet });
    expect(asYaml).toEqual([{ spec: { cfg: { a: 1, b: ['x', 'y'] } } }]);
  });

  it('returns every non-empty document of a stream', () => {
    const docs = renderManifest('---\na: {{ .x }}\n---\n# only a comment\n---\nb: 2\n', { x: 1 });
    expect(docs).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('substitutes placeholders in keys', () => {
    const [doc] = renderManifest('labels:\n  {{ .k }}: {{ .v }}\n', { k: 'app.kubernetes.io/name', v: 'db' }) as Obj[];
    expect(doc).toEqual({ labels: { 'app.kubernetes.io/name': 'db' } });
  });

  it('rejects a value key that collides with a literal key', () => {
    expect(() => renderManifest('kind: Pod\n{{ .k }}: x\n', { k: 'kind' })).toThrow(/duplicate key "kind"/);
  });

  it('reports YAML the author broke with the template name', () => {
    const run = (): unknown => renderManifest('a: [\n', {}, { name: 'steps[0].manifests' });
    expect(run).toThrow(TemplateRenderError);
    expect(run).toThrow(/template "steps\[0\]\.manifests": rendered YAML is invalid/);
  });

  it("rejects serialiser output spliced into a scalar, where its quotes would close the author's", () => {
    const evil = { x: ', evil: 1, z: ' };
    expect(() => renderManifest('spec: {a: "{{ toJson .x }}"}\n', evil)).toThrow(
      /output of toJson is spliced into a YAML scalar/,
    );
    expect(() => renderManifest('spec:\n  a: v{{ toYaml .n }}\n', { n: 5 })).toThrow(
      /output of toYaml is spliced into a YAML scalar/,
    );
    expect(renderManifest('spec: {a: {{ toJson .x }}}\n', evil)).toEqual([{ spec: { a: ', evil: 1, z: ' } }]);
  });

  it('still reports missing keys', () => {
    expect(() => renderManifest('a: {{ .Resource.spec.nope }}\n', resource({}))).toThrow(
      'map has no entry for key "nope" at .Resource.spec.nope',
    );
  });
});

// Every hostile value is tried in every position a Flow author commonly puts a value.
const HOSTILE = [
  'postgres\n    privileged: true',
  'x\nkind: Secret',
  'a: b',
  '{b: 1}',
  "'], evil: [",
  '"\nevil: true\n"',
  'x\n---\nkind: Secret\nmetadata: {name: pwn}',
  '[1, 2]',
  '*alias',
  '&anchor x',
  '!!binary aGVsbG8=',
  '# comment',
  '- item',
  '|\n  block',
  'x\n  - y\nevil: 1',
  'key: value\n  nested: 1',
  '}}{{ .Resource.metadata.name }}',
  'x\u2028evil: 1',
  '__FLOWOPS_0000000000000000_0__',
  '   leading and trailing   ',
  '\ttab: x',
  '"quoted"',
  "it's",
  '? complex\n: key',
];

const POSITIONS: { name: string; tpl: string; read: (doc: Obj) => unknown; expected: (v: string) => unknown }[] = [
  {
    name: 'plain value',
    tpl: 'spec:\n  image: {{ .Resource.spec.engine }}\n',
    read: (d) => spec(d).image,
    expected: (v) => v,
  },
  {
    name: 'embedded in a plain value',
    tpl: 'spec:\n  image: {{ .Resource.spec.engine }}:latest\n',
    read: (d) => spec(d).image,
    expected: (v) => `${v}:latest`,
  },
  {
    name: 'inside double quotes',
    tpl: 'spec:\n  image: "{{ .Resource.spec.engine }}"\n',
    read: (d) => spec(d).image,
    expected: (v) => v,
  },
  {
    name: 'inside single quotes',
    tpl: "spec:\n  image: '{{ .Resource.spec.engine }}'\n",
    read: (d) => spec(d).image,
    expected: (v) => v,
  },
  {
    name: 'through quote',
    tpl: 'spec:\n  image: {{ .Resource.spec.engine | quote }}\n',
    read: (d) => spec(d).image,
    expected: (v) => v,
  },
  {
    name: 'through toJson',
    tpl: 'spec:\n  image: {{ .Resource.spec.engine | toJson }}\n',
    read: (d) => spec(d).image,
    expected: (v) => v,
  },
  {
    name: 'through toYaml without nindent',
    tpl: 'spec:\n  image: {{ toYaml .Resource.spec.engine }}\n',
    read: (d) => spec(d).image,
    expected: (v) => v,
  },
  {
    name: 'in a map built by toYaml | nindent',
    tpl: 'spec:\n  env:\n    {{- toYaml (dict "ENGINE" .Resource.spec.engine) | nindent 4 }}\n',
    read: (d) => (spec(d).env as Obj).ENGINE,
    expected: (v) => v,
  },
  {
    name: 'flow sequence item',
    tpl: 'spec:\n  args: [{{ .Resource.spec.engine }}, "--x"]\n',
    read: (d) => spec(d).args,
    expected: (v) => [v, '--x'],
  },
  {
    name: 'flow mapping value',
    tpl: 'spec:\n  opts: {engine: {{ .Resource.spec.engine }}}\n',
    read: (d) => spec(d).opts,
    expected: (v) => ({ engine: v }),
  },
  {
    name: 'block sequence item',
    tpl: 'spec:\n  args:\n    - {{ .Resource.spec.engine }}\n',
    read: (d) => spec(d).args,
    expected: (v) => [v],
  },
  {
    name: 'block scalar via nindent',
    tpl: 'spec:\n  script: |\n    echo start\n    {{- .Resource.spec.engine | nindent 4 }}\n    echo end\n',
    read: (d) => spec(d).script,
    expected: (v) => `echo start\n${v}\necho end\n`,
  },
  {
    name: 'map key',
    tpl: 'spec:\n  labels:\n    {{ .Resource.spec.engine }}: "1"\n',
    read: (d) => Object.keys(spec(d).labels as Obj),
    expected: (v) => [v],
  },
];

function spec(doc: Obj): Obj {
  return doc.spec as Obj;
}

describe('renderManifest: injection corpus', () => {
  for (const pos of POSITIONS) {
    describe(pos.name, () => {
      it.each(HOSTILE.map((v) => [JSON.stringify(v), v]))('%s', (_label, value) => {
        const docs = renderManifest(pos.tpl, resource({ engine: value })) as Obj[];
        expect(docs).toHaveLength(1);
        const doc = docs[0] as Obj;
        expect(Object.keys(doc)).toEqual(['spec']);
        expect(Object.keys(spec(doc))).toHaveLength(1);
        expect(pos.read(doc)).toEqual(pos.expected(value));
      });
    });
  }

  it('plain render is NOT injection safe, which is why manifests use renderManifest', () => {
    const text = render('spec:\n  image: {{ .e }}\n', { e: 'x\n  privileged: true' });
    expect(parseYaml(text)).toEqual({ spec: { image: 'x', privileged: true } });
  });
});
