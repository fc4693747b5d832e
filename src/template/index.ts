// Public surface of the template language: Go text/template syntax with sprig/Helm functions,
// evaluated directly (no Go, no Handlebars), plus injection-safe YAML manifest rendering.

export { TemplateParseError, TemplateRenderError } from './errors.js';
export type { UserFunction } from './functions.js';
export { renderManifest } from './manifest.js';
export { parsedTemplate } from './parse-cache.js';
export { templateRefs } from './refs.js';
export {
  isTemplated,
  parseTemplate,
  render,
  renderValue,
  type CompiledTemplate,
  type TemplateOptions,
} from './template.js';

// faces:begin (scripts/faces.ts writes this block: what other parts import from this one)
export type { Command, Expr, Node, Pipeline } from './ast.js';
export { LineIndex } from './errors.js';
// faces:end
