// Builds an http step's headers and body from the step and TemplateData.

import type { HttpStep } from '../api/index.js';
import type { Masker } from './mask.js';
import { renderDocuments, renderText, renderTree } from './render.js';
import { readSecretValue } from './secret-values.js';
import { invalid } from './step-errors.js';
import type { StepContext } from './types.js';

export interface BuiltHeaders {
  headers: Record<string, string>;
  /** Lower-case names of headers whose value came from a Secret; dropped on cross-origin redirects. */
  secret: Set<string>;
}

export async function buildHeaders(step: HttpStep, ctx: StepContext, masker: Masker): Promise<BuiltHeaders> {
  const headers: Record<string, string> = {};
  const secret = new Set<string>();
  for (const [rawName, spec] of Object.entries(step.headers ?? {})) {
    const name = rawName.toLowerCase();
    let value: string;
    if (typeof spec === 'string') {
      value = renderText(spec, ctx.data, `${step.name}.headers.${rawName}`);
    } else {
      const ref = {
        name: renderText(spec.secretKeyRef.name, ctx.data, `${step.name}.headers.${rawName}.secretKeyRef.name`),
        key: renderText(spec.secretKeyRef.key, ctx.data, `${step.name}.headers.${rawName}.secretKeyRef.key`),
      };
      const raw = await readSecretValue(ref, ctx);
      masker.add(raw);
      // `kubectl create secret --from-file` keeps the file's trailing newline, which no header may carry.
      value = raw.replace(/[\r\n]+$/, '');
      secret.add(name);
    }
    if (/[\r\n\0]/.test(value))
      throw invalid(`${step.name}.headers.${rawName}: the value contains a line break`, 'InvalidHeader');
    headers[name] = value;
  }
  return { headers, secret };
}

export interface BuiltBody {
  body: string;
  contentType: string;
}

/**
 * An object body becomes JSON with its string leaves rendered as typed values. A string body
 * that is JSON text (starts with { or [) is rendered the injection-safe way and re-serialised, so
 * a value with a quote cannot add JSON fields; any other string is rendered as text.
 */
export function buildBody(step: HttpStep, ctx: StepContext): BuiltBody | undefined {
  if (step.body === undefined || step.body === null) return undefined;
  const field = `${step.name}.body`;
  if (typeof step.body === 'string') {
    const trimmed = step.body.trimStart();
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      const docs = renderDocuments(step.body, ctx.data, field);
      if (docs.length !== 1) throw invalid(`${field} must be one JSON document`);
      return { body: JSON.stringify(docs[0]), contentType: 'application/json' };
    }
    return { body: renderText(step.body, ctx.data, field), contentType: 'text/plain; charset=utf-8' };
  }
  return { body: JSON.stringify(renderTree(step.body, ctx.data, field)), contentType: 'application/json' };
}
