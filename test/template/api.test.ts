// The public API around the evaluator: typed values, references, errors, options, caching.
import { describe, expect, it } from 'vitest';
import {
  isTemplated,
  parseTemplate,
  render,
  renderValue,
  templateRefs,
  TemplateParseError,
  TemplateRenderError,
} from '../../src/template/index.js';

const data = {
  Resource: { metadata: { name: 'db' }, spec: { replicas: 3, labels: { a: '1' }, flag: false } },
  Steps: { create: { Outputs: { id: 'abc', count: 2 } } },
  Now: '2024-05-01T10:00:00Z',
};

describe('renderValue', () => {
  it('returns the raw value of a single action', () => {
    expect(renderValue('{{ gt .Resource.spec.replicas 0 }}', data)).toBe(true);
    expect(renderValue('{{ .Resource.spec.replicas }}', data)).toBe(3);
    expect(renderValue('  {{ .Resource.spec.flag }}\n', data)).toBe(false);
    expect(renderValue('{{ .Steps.create.Outputs.count }}', data)).toBe(2);
    expect(renderValue('{{ .Resource.spec.labels }}', data)).toEqual({ a: '1' });
  });

  it("does not hand back the caller's own objects", () => {
    const v = renderValue('{{ .Resource.spec.labels }}', data) as Record<string, string>;
    v.a = 'changed';
    expect(data.Resource.spec.labels.a).toBe('1');
  });

  it('renders text when there is more than one action or any text', () => {
    expect(renderValue('{{ .Resource.spec.replicas }}x', data)).toBe('3x');
    expect(renderValue('{{ 1 }}{{ 2 }}', data)).toBe('12');
    expect(renderValue('no template', data)).toBe('no template');
  });

  it('names the template and path when a `when:` refers to a missing field', () => {
    expect(() => renderValue('{{ gt .Resource.spec.replicaz 0 }}', data, { name: 'when' })).toThrow(
      'template "when": map has no entry for key "replicaz" at .Resource.spec.replicaz (line 1, column 7)',
    );
  });
});

describe('errors', () => {
  it('parse errors carry name, line and column', () => {
    try {
      parseTemplate('ok\n  {{ nope 1 }}', { name: 'steps[0].manifests' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(TemplateParseError);
      const e = err as TemplateParseError;
      expect(e.templateName).toBe('steps[0].manifests');
      expect([e.line, e.column]).toEqual([2, 6]);
      expect(e.detail).toBe('function "nope" not defined');
      expect(e.message).toBe('template "steps[0].manifests": function "nope" not defined (line 2, column 6)');
    }
  });

  it('render errors carry name, line and column', () => {
    const tpl = parseTemplate('a: 1\nb: {{ .Resource.nope }}\n', { name: 'm' });
    try {
      tpl.render(data);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(TemplateRenderError);
      const e = err as TemplateRenderError;
      expect([e.templateName, e.line, e.column]).toEqual(['m', 2, 7]);
      expect(e.detail).toBe('map has no entry for key "nope" at .Resource.nope');
    }
  });

  it('wraps errors thrown by caller functions', () => {
    const functions = {
      boom: (): never => {
        throw new Error('kaput');
      },
    };
    expect(() => render('{{ boom }}', {}, { functions })).toThrow(/error calling boom: kaput/);
  });
});

describe('options', () => {
  it('accepts caller functions, which may override builtins', () => {
    const functions = {
      double: (n: unknown): number => Number(n) * 2,
      upper: (s: unknown): string => `U(${String(s)})`,
    };
    expect(render('{{ .Resource.spec.replicas | double }} {{ upper "x" }}', data, { functions })).toBe('6 U(x)');
    expect(() => render('{{ double 1 }}', data)).toThrow('function "double" not defined');
  });

  it('exposes the source of a compiled template and renders it repeatedly', () => {
    const tpl = parseTemplate('{{ .n }}');
    expect(tpl.source).toBe('{{ .n }}');
    expect([tpl.render({ n: 1 }), tpl.render({ n: 2 })]).toEqual(['1', '2']);
  });

  it('caches per name so error messages keep the right name', () => {
    expect(() => render('{{ .x }}', {}, { name: 'first' })).toThrow('template "first"');
    expect(() => render('{{ .x }}', {}, { name: 'second' })).toThrow('template "second"');
  });
});

describe('data safety', () => {
  it('never reaches the prototype through field access or index', () => {
    expect(() => render('{{ .constructor }}', {})).toThrow('map has no entry for key "constructor"');
    expect(render('[{{ index . "__proto__" }}]', {})).toBe('[]');
    expect(render('{{ (dict "__proto__" "x").__proto__ }}', {})).toBe('x');
  });
});

describe('isTemplated', () => {
  it('detects actions', () => {
    expect(isTemplated('name: {{ .x }}')).toBe(true);
    expect(isTemplated('plain')).toBe(false);
  });
});

describe('templateRefs', () => {
  it('lists root paths, resolving with-blocks, variables and the seed form', () => {
    const src = `{{ .Resource.spec.replicas }}
{{ with .Resource.metadata }}{{ .name }}{{ end }}
{{ $s := .Resource.spec }}{{ $s.engine | default "pg" }}
{{ range .Resource.spec.items }}{{ .ignored }}{{ $.Now }}{{ end }}
{{ steps.create-db.outputs.id }}
{{ if .Resource.spec.replicas }}{{ end }}`;
    expect(templateRefs(src)).toEqual([
      '.Resource.spec.replicas',
      '.Resource.metadata',
      '.Resource.metadata.name',
      '.Resource.spec',
      '.Resource.spec.engine',
      '.Resource.spec.items',
      '.Now',
      '.Steps.create-db.Outputs.id',
    ]);
  });

  it('throws parse errors for broken templates', () => {
    expect(() => templateRefs('{{ .x ')).toThrow('unclosed action');
  });
});
