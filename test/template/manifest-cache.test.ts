// renderManifest's parse cache: a render whose text has the same shape as an earlier one reuses that
// parse, and must give exactly what parsing it would have.
import { inspect } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderManifest } from '../../src/template/index.js';
import { clearManifestPlanCache, manifestPlanCacheStats } from '../../src/template/manifest.js';

type Obj = Record<string, unknown>;

/**
 * The same template through the uncached path: a toJson region anywhere in the text turns the cache
 * off, and one in a document of its own that renders `null` adds nothing to the output.
 */
const uncached = (tpl: string, data: unknown): unknown[] => renderManifest(`${tpl}\n---\n{{ toJson nil }}\n`, data);

/** Structure, key order, types and shared references, which toEqual alone does not compare. */
const exact = (v: unknown): string => inspect(v, { depth: null, sorted: false, showHidden: false });

const outcome = (run: () => unknown[]): string => {
  try {
    return exact(run());
  } catch (err) {
    return `throws ${(err as Error).message}`;
  }
};

beforeEach(() => clearManifestPlanCache());

describe('renderManifest parse cache', () => {
  it('parses a shape once and fills in typed values on later renders', () => {
    // (Not `n:` or `y:` as keys: YAML 1.1 reads those as booleans.)
    const tpl =
      'num: {{ .n }}\ns: {{ .s }}\nq: "{{ .n }}"\nsq: \'{{ .b }}\'\nt: !!str {{ .n }}\nb: {{ .b }}\nz: {{ .z }}\nmix: v{{ .n }}\n';
    const first = renderManifest(tpl, { n: 3, s: '3', b: true, z: null });
    expect(manifestPlanCacheStats()).toEqual({ entries: 1, unplannable: 0 });
    const second = renderManifest(tpl, { n: 4.5, s: 'null', b: 'false', z: 'x' });
    expect(manifestPlanCacheStats()).toEqual({ entries: 1, unplannable: 0 });

    expect(first).toStrictEqual([{ num: 3, s: '3', q: '3', sq: 'true', t: '3', b: true, z: null, mix: 'v3' }]);
    expect(second).toStrictEqual([
      { num: 4.5, s: 'null', q: '4.5', sq: 'false', t: '4.5', b: 'false', z: 'x', mix: 'v4.5' },
    ]);
  });

  it('hands out fresh objects: mutating one render does not reach the next', () => {
    const tpl = 'metadata:\n  labels:\n    app: {{ .app }}\nspec:\n  ports: [80, {{ .port }}]\n';
    const [a] = renderManifest(tpl, { app: 'db', port: 5432 }) as Obj[];
    ((a as Obj).metadata as Obj).labels = { hacked: true };
    ((a as Obj).spec as { ports: number[] }).ports.push(1);
    (a as Obj).extra = 1;
    const [b] = renderManifest(tpl, { app: 'web', port: 8080 }) as Obj[];
    expect(b).toStrictEqual({ metadata: { labels: { app: 'web' } }, spec: { ports: [80, 8080] } });
  });

  it('substitutes keys from values and still rejects duplicates they make on a cached shape', () => {
    const tpl = 'kind: Pod\nlabels:\n  {{ .a }}: p\n  {{ .b }}: q\n{{ .c }}: r\n';
    expect(renderManifest(tpl, { a: 'one', b: 'two', c: 'spec' })).toStrictEqual([
      { kind: 'Pod', labels: { one: 'p', two: 'q' }, spec: 'r' },
    ]);
    expect(() => renderManifest(tpl, { a: 'same', b: 'same', c: 'spec' })).toThrow(
      'rendered YAML has duplicate key "same"',
    );
    expect(() => renderManifest(tpl, { a: 'p', b: 'q', c: 'kind' })).toThrow('rendered YAML has duplicate key "kind"');
    // Reported as the uncached path reports it: the first duplicate in document order.
    const both = { a: 'same', b: 'same', c: 'kind' };
    expect(outcome(() => renderManifest(tpl, both))).toBe(outcome(() => uncached(tpl, both)));
    expect(manifestPlanCacheStats()).toEqual({ entries: 1, unplannable: 0 });
  });

  it('keeps a key named __proto__ an own key', () => {
    const tpl = '{{ .k }}: {{ .v }}\nconstructor: 1\n';
    renderManifest(tpl, { k: 'a', v: 1 });
    const [doc] = renderManifest(tpl, { k: '__proto__', v: 'x' }) as Obj[];
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.keys(doc as Obj)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(doc, '__proto__')?.value).toBe('x');
  });

  it('lets no value add structure on a cached render', () => {
    const tpl =
      'spec:\n  image: {{ .v }}\n  flow: {a: {{ .v }}}\n  list: [{{ .v }}]\n  quoted: "{{ .v }}"\n  labels:\n    {{ .v }}: "1"\n';
    renderManifest(tpl, { v: 'postgres' });
    for (const v of [
      'x\n  privileged: true',
      '}: x',
      '"\nevil: 1\n"',
      'a: b',
      '[1, 2]',
      '*alias',
      '&anchor x',
      '__FLOWOPS_0000000000000000_0__',
    ]) {
      const [doc] = renderManifest(tpl, { v }) as Obj[];
      expect(doc).toStrictEqual({ spec: { image: v, flow: { a: v }, list: [v], quoted: v, labels: { [v]: '1' } } });
    }
    expect(manifestPlanCacheStats()).toEqual({ entries: 1, unplannable: 0 });
  });

  it('caches each length of a range-built list as its own shape', () => {
    const tpl = 'items:\n{{- range .items }}\n  - name: {{ .name }}\n    size: {{ .size }}\n{{- end }}\n';
    const make = (n: number): Obj => ({ items: Array.from({ length: n }, (_, i) => ({ name: `n${i}`, size: i })) });
    for (const n of [3, 1, 3, 0, 5, 1]) {
      const [doc] = renderManifest(tpl, make(n)) as Obj[];
      expect(doc).toStrictEqual({ items: n === 0 ? null : (make(n).items as Obj[]) });
    }
    expect(manifestPlanCacheStats().entries).toBe(4);
  });

  it('renders anchors, aliases and << merges as the uncached path does', () => {
    const tpl = `base: &base
  image: {{ .image }}
  port: {{ .port }}
  tag: "{{ .port }}"
one:
  <<: *base
  port: 1
two:
  name: {{ .name }}
  <<: [*base]
list: &l [{{ .name }}, x]
again: *l
self: &s {name: {{ .name }}, me: *s}
`;
    for (const data of [
      { image: 'pg', port: 5432, name: 'a' },
      { image: '3', port: '5432', name: null },
      { image: 'x\ny: 1', port: true, name: '<<' },
    ]) {
      expect(outcome(() => renderManifest(tpl, data))).toBe(outcome(() => uncached(tpl, data)));
    }
    const [doc] = renderManifest(tpl, { image: 'pg', port: 5432, name: 'a' }) as Obj[];
    expect(doc).toMatchObject({
      base: { image: 'pg', port: 5432, tag: '5432' },
      one: { image: 'pg', port: 1, tag: '5432' },
      two: { name: 'a', image: 'pg', port: 5432, tag: '5432' },
      list: ['a', 'x'],
    });
    // Aliases share one object per render, as parsing makes them; never across renders.
    expect((doc as Obj).again).toBe((doc as Obj).list);
    expect(((doc as Obj).self as Obj).me).toBe((doc as Obj).self);
    const [next] = renderManifest(tpl, { image: 'pg', port: 5432, name: 'a' }) as Obj[];
    expect((next as Obj).list).not.toBe((doc as Obj).list);
    expect(manifestPlanCacheStats()).toEqual({ entries: 1, unplannable: 0 });
  });

  it('matches the uncached path across a corpus of shapes and values', () => {
    const templates = [
      'a: {{ .v }}\nb: "{{ .v }}"\nc: \'{{ .v }}\'\nd: !!str {{ .v }}\ne: x{{ .v }}y{{ .w }}\n',
      'a: !!int {{ .v }}\nb: !custom {{ .v }}\nc: 0644\nd: y\ne: ~\n',
      '{{ .v }}: 1\n{{ .w }}: 2\n',
      '~: a\n"": b\n{{ .v }}: c\n5: d\n',
      '---\na: {{ .v }}\n---\n---\n{{ .w }}\n---\n[{{ .v }}, {{ .w }}]\n',
      '{{ .v }}\n',
      'script: |\n  start\n  {{- .v | nindent 2 }}\n  end\nq: {{ .v | quote }}\nsq: {{ .w | squote }}\n',
      'base: &b\n  {{ .v }}: 1\nm:\n  y: 2\n  <<: *b\n',
      'm:\n  {{ .v }}: {a: 1}\n',
      '? [{{ .v }}]\n: x\n',
      'p: !!pairs [a: {{ .v }}]\ns: !!set {a, {{ .v }}}\n',
    ];
    const values: unknown[] = [
      'x',
      '3',
      3,
      1.5,
      true,
      'true',
      null,
      'null',
      '',
      '<<',
      '__proto__',
      'a: b',
      '}: x',
      ['a', 1],
      { k: 'v' },
      'y',
    ];
    for (const tpl of templates) {
      for (let i = 0; i < values.length; i++) {
        const data = { v: values[i], w: values[(i * 5 + 3) % values.length] };
        // Nonces differ between runs and can show where the parser cuts a line in its message.
        const norm = (s: string): string => s.replace(/__FLOWOPS_[0-9a-f]*/g, '__FLOWOPS_');
        expect(norm(outcome(() => renderManifest(tpl, data))), `${JSON.stringify(tpl)} with ${exact(data)}`).toBe(
          norm(outcome(() => uncached(tpl, data))),
        );
      }
    }
  });

  it('leaves a key a value makes `<<` to the uncached path, where YAML 1.1 reads it as a merge', () => {
    const tpl = 'base: &b {x: 1}\nm:\n  {{ .k }}: *b\n  z: 2\no:\n  {{ .k }}: "s"\n';
    expect(renderManifest(tpl, { k: 'a' })).toStrictEqual([
      { base: { x: 1 }, m: { a: { x: 1 }, z: 2 }, o: { a: 's' } },
    ]);
    const merge = { k: '<<' };
    expect(outcome(() => renderManifest(tpl, merge))).toBe(outcome(() => uncached(tpl, merge)));
    expect(outcome(() => renderManifest(tpl, merge))).toMatch(/Merge sources must be maps/);
  });

  it('does not cache invalid YAML, and reports it the same way every time', () => {
    const tpl = 'a: {{ .v }}\nb: [\n';
    const first = outcome(() => renderManifest(tpl, { v: 1 }));
    expect(first).toMatch(/^throws template "template": rendered YAML is invalid at line 3/);
    expect(outcome(() => renderManifest(tpl, { v: 1 }))).toBe(first);
    expect(manifestPlanCacheStats()).toEqual({ entries: 1, unplannable: 1 });
  });

  it('keeps at most 512 shapes', () => {
    const tpl = 'items:\n{{- range .items }}\n  - {{ . }}\n{{- end }}\n';
    for (let n = 1; n <= 600; n++) renderManifest(tpl, { items: Array.from({ length: n }, (_, i) => i) });
    expect(manifestPlanCacheStats().entries).toBe(512);
    const [doc] = renderManifest(tpl, { items: [7, 8] }) as Obj[];
    expect(doc).toStrictEqual({ items: [7, 8] });
  });
});
