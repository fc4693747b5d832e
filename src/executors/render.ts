// Rendering of step fields against TemplateData. Template failures leave as permanent StepErrors
// whose message names the step field ("<step>.<field>", line and column).

import { render, renderManifest, renderValue } from '../template/index.js';
import { isPlainObject, templated } from './step-errors.js';
import type { TemplateData } from './types.js';

export function renderText(src: string, data: TemplateData, name: string): string {
  return templated(() => render(src, data, { name }));
}

/** Injection-safe: values from the resource can fill scalars but never add keys or documents. */
export function renderDocuments(src: string, data: TemplateData, name: string): unknown[] {
  return templated(() => renderManifest(src, data, { name }));
}

/**
 * A structured field (http body, helm values) whose string leaves may be templates. A leaf that is
 * one action keeps its value's type (`replicas: "{{ .Resource.spec.replicas }}"` stays a number);
 * structure around it comes only from the author's YAML.
 */
export function renderTree(value: unknown, data: TemplateData, name: string): unknown {
  if (typeof value === 'string') return templated(() => renderValue(value, data, { name }));
  if (Array.isArray(value)) return value.map((v, i) => renderTree(v, data, `${name}[${i}]`));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    // defineProperty: a key named "__proto__" must stay a key, not replace the prototype.
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, {
        value: renderTree(v, data, `${name}.${k}`),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
