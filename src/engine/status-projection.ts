// A Flow's `status:` map: each field rendered after the steps and written under the watched
// object's .status. A template that is one action keeps its value's type (a number stays a number).

import { renderValue } from '../template/index.js';
import type { TemplateData } from '../executors/index.js';
import type { KubeObject } from '../kube/index.js';

export interface StatusData extends TemplateData {
  /** The children this reconcile applied, as the server returned them: `.Children.<Kind>.<name>`. */
  Children: Record<string, Record<string, KubeObject>>;
}

/** Throws TemplateRenderError (named `status.<field>`) when a template does not render. */
export function projectStatus(fields: Record<string, string> | undefined, data: StatusData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, template] of Object.entries(fields ?? {})) {
    const v = renderValue(template, data, { name: `status.${name}` });
    // Undefined (a missing key in a single action) would vanish from the JSON patch; null says "no value".
    out[name] = v === undefined ? null : v;
  }
  return out;
}
