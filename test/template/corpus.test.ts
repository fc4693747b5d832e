// Golden corpus: template + data → exact output (or an error substring), one row per behaviour.
import { describe, expect, it } from 'vitest';
import { render } from '../../src/template/index.js';

const D = {
  Resource: {
    metadata: { name: 'db', namespace: 'prod', labels: { tier: 'data', app: 'db' } },
    spec: {
      replicas: 3,
      engine: 'postgres',
      version: '15.2',
      enabled: true,
      ratio: 0.5,
      empty: '',
      zero: 0,
      nil: null,
      tags: ['a', 'b', 'c'],
      nested: { x: { y: 'deep' } },
    },
  },
  Steps: { create: { Outputs: { id: 'abc123' } }, 'previous-step': { Outputs: { key: 'k1' } } },
  Now: '2024-05-01T10:00:00Z',
};

interface Case {
  tpl: string;
  want?: string;
  err?: string;
  data?: unknown;
}

const SEED_STATEFULSET = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: {{ .Resource.metadata.name }}
  namespace: {{ .Resource.metadata.namespace }}
spec:
  serviceName: {{ .Resource.metadata.name }}
  replicas: {{ .Resource.spec.replicas }}
  template:
    spec:
      containers:
        - name: database
          image: {{ .Resource.spec.engine }}:latest
`;

const cases: Record<string, Case[]> = {
  'text, fields, variables': [
    { tpl: 'plain text, no actions', want: 'plain text, no actions' },
    { tpl: '{{ .Resource.metadata.name }}', want: 'db' },
    { tpl: '{{ .Resource.spec.replicas }}', want: '3' },
    { tpl: '{{ .Resource.spec.ratio }}', want: '0.5' },
    { tpl: '{{ .Resource.spec.enabled }}', want: 'true' },
    { tpl: '{{ .Resource.spec.nil }}', want: '' },
    { tpl: '{{ .Steps.create.Outputs.id }}', want: 'abc123' },
    { tpl: '{{ steps.previous-step.outputs.key }}', want: 'k1' },
    { tpl: '{{ .Steps.previous-step.Outputs.key }}', want: 'k1' },
    { tpl: '{{ range .Resource.spec.tags }}{{ steps.create.outputs.id }}{{ end }}', want: 'abc123abc123abc123' },
    { tpl: '{{ .Now }}', want: '2024-05-01T10:00:00Z' },
    { tpl: '{{ $.Resource.metadata.namespace }}', want: 'prod' },
    { tpl: '{{ .x }}|{{ . }}', data: { x: 1 }, want: '1|map[x:1]' },
    { tpl: '{{ $x := .Resource.spec.replicas }}[{{ $x }}]', want: '[3]' },
    { tpl: '{{ $x := 1 }}{{ $x = 2 }}{{ $x }}', want: '2' },
    { tpl: '{{ $x := 1 }}{{ if true }}{{ $x = 5 }}{{ end }}{{ $x }}', want: '5' },
    { tpl: '{{ (dict "a" (dict "b" "c")).a.b }}', want: 'c' },
    { tpl: '{{ (index .Resource.metadata.labels "app") | upper }}', want: 'DB' },
  ],
  literals: [
    { tpl: '{{ "tab\\there\\u00e9\\x41" }}', want: 'tab\there\u00e9A' },
    { tpl: '{{ `raw\\n{{ not an action` }}', want: 'raw\\n{{ not an action' },
    { tpl: "{{ 0x1F }} {{ 1e3 }} {{ -2 }} {{ 1.5 }} {{ 3.0 }} {{ 'a' }}", want: '31 1000 -2 1.5 3 97' },
    { tpl: '{{ true }} {{ false }}', want: 'true false' },
    {
      tpl: '{{ 1000000 }} {{ 0.0001 }} {{ 0.00001 }} {{ 1234567.5 }} {{ 999999.5 }}',
      want: '1000000 0.0001 1e-05 1.2345675e+06 999999.5',
    },
  ],
  'trim markers and comments': [
    { tpl: 'a  {{- 1 -}}  \n b', want: 'a1b' },
    { tpl: 'items:\n{{- range .Resource.spec.tags }}\n- {{ . }}\n{{- end }}\n', want: 'items:\n- a\n- b\n- c\n' },
    { tpl: 'a{{/* a comment */}}b', want: 'ab' },
    { tpl: 'a \n{{- /* trimmed comment */ -}}\n b', want: 'ab' },
    { tpl: '{{ 3 -}} - {{- 4 }}', want: '3-4' },
  ],
  'if / with': [
    {
      tpl: '{{ if gt .Resource.spec.replicas 5 }}big{{ else if gt .Resource.spec.replicas 1 }}medium{{ else }}small{{ end }}',
      want: 'medium',
    },
    { tpl: '{{ if .Resource.spec.missing }}yes{{ else }}no{{ end }}', want: 'no' },
    { tpl: '{{ if and .Resource.spec.enabled (not .Resource.spec.missing) }}on{{ end }}', want: 'on' },
    {
      tpl: '{{ if 0 }}t{{ else }}f{{ end }}{{ if "" }}t{{ else }}f{{ end }}{{ if list }}t{{ else }}f{{ end }}{{ if dict }}t{{ else }}f{{ end }}{{ if .Resource.spec.nil }}t{{ else }}f{{ end }}{{ if "0" }}t{{ else }}f{{ end }}',
      want: 'ffffft',
    },
    { tpl: '{{ with .Resource.metadata }}{{ .name }}@{{ $.Now }}{{ end }}', want: 'db@2024-05-01T10:00:00Z' },
    { tpl: '{{ with .Resource.spec.empty }}x{{ else }}empty{{ end }}', want: 'empty' },
    {
      tpl: '{{ with .Resource.spec.missing }}a{{ else with .Resource.spec.engine }}{{ . }}{{ end }}',
      want: 'postgres',
    },
    { tpl: '{{ with $e := .Resource.spec.engine }}{{ $e }}{{ end }}', want: 'postgres' },
  ],
  range: [
    { tpl: '{{ range .Resource.spec.tags }}[{{ . }}]{{ end }}', want: '[a][b][c]' },
    { tpl: '{{ range $i, $t := .Resource.spec.tags }}{{ $i }}={{ $t }} {{ end }}', want: '0=a 1=b 2=c ' },
    { tpl: '{{ range $k, $v := .Resource.metadata.labels }}{{ $k }}:{{ $v }};{{ end }}', want: 'app:db;tier:data;' },
    { tpl: '{{ range $v := .Resource.metadata.labels }}{{ $v }},{{ end }}', want: 'db,data,' },
    { tpl: '{{ range .m }}{{ . }}{{ end }}', data: { m: { b: 2, a: 1, c: 3 } }, want: '123' },
    { tpl: '{{ range list }}x{{ else }}none{{ end }}', want: 'none' },
    { tpl: '{{ range .Resource.spec.tags }}{{ if eq . "b" }}{{ continue }}{{ end }}{{ . }}{{ end }}', want: 'ac' },
    { tpl: '{{ range .Resource.spec.tags }}{{ if eq . "b" }}{{ break }}{{ end }}{{ . }}{{ end }}', want: 'a' },
    { tpl: '{{ range 3 }}{{ . }}{{ end }}', want: '012' },
    { tpl: '{{ range .Resource.spec.tags }}{{ $.Resource.metadata.name }}{{ end }}', want: 'dbdbdb' },
    { tpl: '{{ $n := 0 }}{{ range .Resource.spec.tags }}{{ $n = add $n 1 }}{{ end }}{{ $n }}', want: '3' },
  ],
  'pipelines and logic': [
    { tpl: '{{ "world" | printf "%s-%s" "hello" }}', want: 'hello-world' },
    { tpl: '{{ .Resource.spec.engine | default "mysql" | quote }}', want: '"postgres"' },
    { tpl: 'image: {{ .Resource.spec.engine | default "postgres" | quote }}', want: 'image: "postgres"' },
    { tpl: '{{ gt .Resource.spec.replicas 0 }}', want: 'true' },
    { tpl: '{{ and 1 "x" 0 "y" }}|{{ and 1 2 }}|{{ or 0 "" "z" }}|{{ or 0 "" }}|', want: '0|2|z||' },
    { tpl: '{{ or .Resource.spec.engine (fail "never evaluated") }}', want: 'postgres' },
    { tpl: '{{ and .Resource.spec.zero (fail "never evaluated") }}', want: '0' },
    { tpl: '{{ not .Resource.spec.missing }} {{ not 1 }}', want: 'true false' },
    {
      tpl: '{{ eq .Resource.spec.engine "mysql" "postgres" }} {{ ne 1 2 }} {{ eq .Resource.spec.nil nil }}',
      want: 'true true true',
    },
    { tpl: '{{ lt 1 2 }} {{ le 2 2 }} {{ gt "b" "a" }} {{ ge 1 2 }}', want: 'true true true false' },
  ],
  'sprig defaults': [
    { tpl: '{{ .Resource.spec.missing | default "x" }}', want: 'x' },
    { tpl: '{{ default "x" .Resource.spec.engine }}', want: 'postgres' },
    { tpl: '{{ .Resource.spec.zero | default 5 }} {{ .Resource.spec.empty | default "e" }}', want: '5 e' },
    { tpl: '{{ .Resource.spec.nested.missing.deeper | default "d" }}', want: 'd' },
    { tpl: '{{ required "need engine" .Resource.spec.engine }}', want: 'postgres' },
    {
      tpl: '{{ empty .Resource.spec.missing }} {{ empty .Resource.spec.tags }} {{ empty 0 }}',
      want: 'true false true',
    },
    { tpl: '{{ coalesce .Resource.spec.missing .Resource.spec.empty "fallback" }}', want: 'fallback' },
    {
      tpl: '{{ ternary "yes" "no" .Resource.spec.enabled }} {{ .Resource.spec.zero | ternary "y" "n" }}',
      want: 'yes n',
    },
  ],
  'strings and encoding': [
    { tpl: '{{ quote "a\\"b\\n" }} {{ squote "x" }} {{ quote 3 }}', want: '"a\\"b\\n" \'x\' "3"' },
    { tpl: '{{ upper "ab" }}{{ lower "CD" }} {{ title "hello wide-world" }}', want: 'ABcd Hello Wide-World' },
    {
      tpl: '{{ trim "  x  " }}|{{ "v1.2" | trimPrefix "v" }}|{{ "app.yaml" | trimSuffix ".yaml" }}',
      want: 'x|1.2|app',
    },
    { tpl: '{{ "a-b-c" | replace "-" "_" }}', want: 'a_b_c' },
    {
      tpl: '{{ contains "gres" .Resource.spec.engine }} {{ hasPrefix "post" .Resource.spec.engine }} {{ hasSuffix "x" .Resource.spec.engine }}',
      want: 'true true false',
    },
    { tpl: '{{ b64enc "hello" }} {{ b64dec "aGVsbG8=" }}', want: 'aGVsbG8= hello' },
    { tpl: '{{ "a\\nb" | indent 2 }}', want: '  a\n  b' },
    { tpl: 'x:{{ "a: 1\\nb: 2" | nindent 2 }}', want: 'x:\n  a: 1\n  b: 2' },
    { tpl: '{{ toString 3 }}-{{ toString nil }}', want: '3-<nil>' },
  ],
  'printf / print': [
    {
      tpl: '{{ printf "%s|%d|%v|%q|%.2f|%t|%x|%5d|%-5s|%05d|%%" "s" 42 .Resource.spec.tags "q" 3.14159 true 255 7 "ab" 42 }}',
      want: 's|42|[a b c]|"q"|3.14|true|ff|    7|ab   |00042|%',
    },
    { tpl: '{{ printf "%v %v" .Resource.metadata.labels nil }}', want: 'map[app:db tier:data] <nil>' },
    { tpl: '{{ printf "%d %d" 1 }}', want: '1 %!d(MISSING)' },
    { tpl: '{{ printf "%d" "x" }}', want: '%!d(string=x)' },
    { tpl: '{{ printf "%s-%d" .Resource.metadata.name .Resource.spec.replicas }}', want: 'db-3' },
    { tpl: '{{ print "a" 1 2 "b" }}|{{ println "a" 1 }}', want: 'a1 2b|a 1\n' },
    {
      tpl: '{{ printf "%e|%g|%.3g|%c|%q|%+d|%8.3f|%X" 1234.5 0.000012 1234.5678 65 65 5 3.14159 "hi" }}',
      want: "1.234500e+03|1.2e-05|1.23e+03|A|'A'|+5|   3.142|6869",
    },
  ],
  'collections and conversion': [
    { tpl: '{{ len .Resource.spec.tags }} {{ len "héllo" }} {{ len .Resource.metadata.labels }}', want: '3 6 2' },
    {
      tpl: '{{ index .Resource.spec.tags 1 }} {{ index .Resource.spec "nested" "x" "y" }} [{{ index .Resource.metadata.labels "nope" }}]',
      want: 'b deep []',
    },
    { tpl: '{{ list 1 "a" true }} {{ dict "b" 1 "a" 2 }}', want: '[1 a true] map[a:2 b:1]' },
    { tpl: '{{ hasKey .Resource.metadata.labels "app" }} {{ hasKey .Resource.spec.missing "x" }}', want: 'true false' },
    { tpl: '{{ keys .Resource.metadata.labels | join "," }}', want: 'app,tier' },
    {
      tpl: '{{ join "-" .Resource.spec.tags }} {{ (split "." .Resource.spec.version)._0 }} {{ splitList "." "a.b.c" | len }}',
      want: 'a-b-c 15 3',
    },
    {
      tpl: '{{ toJson .Resource.metadata.labels }} {{ toJson "<a&b>" }}',
      want: '{"app":"db","tier":"data"} "\\u003ca\\u0026b\\u003e"',
    },
    {
      tpl: '{{ toYaml .Resource.metadata.labels }}|{{ toYaml "yes" }}|{{ toYaml .Resource.spec.tags }}',
      want: 'app: db\ntier: data|"yes"|- a\n- b\n- c',
    },
    { tpl: '{{ (fromJson "{\\"a\\":[1,2]}").a }}', want: '[1 2]' },
    { tpl: '{{ int "42" }} {{ int 3.9 }} {{ float64 "1.5" }} {{ atoi "12" }} {{ atoi "x" }}', want: '42 3 1.5 12 0' },
    {
      tpl: '{{ slice .Resource.spec.tags 1 }} {{ slice "abcdef" 1 3 }} {{ add1 1 }} {{ addf 1.5 1 }} {{ int64 "7" }}',
      want: '[b c] bc 2 2.5 7',
    },
    { tpl: '{{ (fromYaml "a:\\n  b: [1, 2]").a.b }}', want: '[1 2]' },
    {
      tpl: '{{ add 1 2 3 }} {{ sub 10 4 }} {{ mul 2 3 }} {{ div 7 2 }} {{ mod 7 3 }} {{ max 1 5 3 }} {{ min 4 2 }}',
      want: '6 6 6 3 1 5 2',
    },
  ],
  'seed forms': [
    {
      tpl: SEED_STATEFULSET,
      want: SEED_STATEFULSET.replace(/\{\{ \.Resource\.metadata\.name \}\}/g, 'db')
        .replace('{{ .Resource.metadata.namespace }}', 'prod')
        .replace('{{ .Resource.spec.replicas }}', '3')
        .replace('{{ .Resource.spec.engine }}', 'postgres'),
    },
    { tpl: 'if [[ {{ .Resource.spec.replicas }} -lt 1 ]]; then exit 1; fi', want: 'if [[ 3 -lt 1 ]]; then exit 1; fi' },
    { tpl: 'id={{ steps.create.outputs.id }} at {{ .Now }}', want: 'id=abc123 at 2024-05-01T10:00:00Z' },
  ],
  'render errors': [
    {
      tpl: '{{ .Resource.spec.replicass }}',
      err: 'map has no entry for key "replicass" at .Resource.spec.replicass (line 1, column 4)',
    },
    {
      tpl: '{{ .Resource.spec.missing | upper }}',
      err: 'map has no entry for key "missing" at .Resource.spec.missing',
    },
    {
      tpl: '{{ .Resource.spec.nested.missing.deeper }}',
      err: 'map has no entry for key "missing" at .Resource.spec.nested.missing.deeper',
    },
    { tpl: '{{ steps.nope.outputs.key }}', err: 'map has no entry for key "nope" at steps.nope.outputs.key' },
    { tpl: 'line one\n  {{ .nope }}', data: {}, err: 'map has no entry for key "nope" at .nope (line 2, column 6)' },
    {
      tpl: '{{ required "spec.size is required" .Resource.spec.size }}',
      err: 'spec.size is required (line 1, column 4)',
    },
    { tpl: '{{ eq 1 "1" }}', err: 'incompatible types for comparison' },
    { tpl: '{{ upper }}', err: 'wrong number of args for upper: want 1 got 0' },
    { tpl: '{{ .Resource.spec.engine.x }}', err: "can't evaluate field x in type string" },
    { tpl: '{{ range .Resource.spec.engine }}{{ end }}', err: "range can't iterate over postgres" },
    { tpl: '{{ index .Resource.spec.tags 5 }}', err: 'error calling index: index out of range: 5' },
    { tpl: '{{ b64dec "!!" }}', err: 'b64dec: illegal base64 data' },
    { tpl: '{{ div 1 0 }}', err: 'error calling div: integer divide by zero' },
    { tpl: '{{ fail "stop here" }}', err: 'stop here' },
  ],
  'parse errors': [
    { tpl: '{{ foo 1 }}', err: 'function "foo" not defined (line 1, column 4)' },
    { tpl: 'hello {{ .x', err: 'unclosed action' },
    { tpl: '{{ end }}', err: 'unexpected {{end}}' },
    { tpl: 'a\n{{ if true }}x', err: '{{if}} has no matching {{end}} (line 2, column 1)' },
    { tpl: '{{/* never closed', err: 'unclosed comment' },
    { tpl: '{{ define "x" }}y{{ end }}', err: '{{define}} is not supported' },
    { tpl: '{{ template "x" . }}', err: '{{template}} is not supported' },
    { tpl: '{{ include "x" . | nindent 2 }}', err: 'function "include" is not supported' },
    { tpl: '{{ break }}', err: '{{break}} outside {{range}}' },
    { tpl: '{{ $nope }}', err: 'undefined variable "$nope"' },
    { tpl: '{{ "abc }}', err: 'unterminated quoted string' },
    { tpl: '{{ .x | }}', err: 'missing command after "|"' },
    { tpl: '{{ if 1 }}a{{ else }}b{{ else }}c{{ end }}', err: 'already has one' },
    { tpl: '{{ nil }}', err: 'nil is not a command' },
    { tpl: '{{ if true }}{{ $inner := 1 }}{{ end }}{{ $inner }}', err: 'undefined variable "$inner"' },
    { tpl: '{{ $x = 1 }}', err: 'undefined variable "$x"' },
    { tpl: '{{ $a, $b := list }}', err: 'too many declarations in command' },
    { tpl: '{{ .x 1 }}', err: "can't give argument to non-function .x" },
    { tpl: '{{ .x-}}', err: 'a trim marker needs a space before it' },
    { tpl: '{{ (1 }}', err: 'unclosed left paren' },
  ],
};

describe('template corpus', () => {
  for (const [group, rows] of Object.entries(cases)) {
    describe(group, () => {
      it.each(rows)('$tpl', ({ tpl, want, err, data }) => {
        const run = (): string => render(tpl, data ?? D, { name: 'corpus' });
        if (err !== undefined) {
          expect(run).toThrow(err);
        } else {
          expect(run()).toBe(want);
        }
      });
    });
  }

  it('has at least 60 rows', () => {
    expect(Object.values(cases).flat().length).toBeGreaterThanOrEqual(60);
  });
});
