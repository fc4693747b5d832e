// An Operator's (dcontroller.io) controllers: each pipeline's expressions checked against its
// sources' schemas (check-pipeline.ts). A source's version, when not given, is the one the API
// server would prefer (the CRD's, or the built-in group's most stable); a view of an Operator
// has no schema, so nothing about it is claimed.

import { isViewGroup } from '../apiserver/crd/view-groups.js';
import type { TypeProblem } from './check-flow.js';
import { checkPipeline, type PipelineSource } from './check-pipeline.js';
import type { SchemaRegistry } from './registry.js';
import { isJson } from './schema.js';
import { UNKNOWN, type Ty } from './types.js';

function sourceTy(source: Record<string, unknown>, kind: string, registry: SchemaRegistry): Ty {
  const group = source.apiGroup;
  // No apiGroup: a view of this Operator.
  if (typeof group !== 'string' || isViewGroup(group)) return UNKNOWN;
  const version =
    typeof source.version === 'string' ? source.version : group === '' ? 'v1' : registry.versionOf(group, kind);
  if (!version) return UNKNOWN;
  return registry.tyOf(group ? `${group}/${version}` : version, kind);
}

export function checkOperator(operator: unknown, registry: SchemaRegistry): TypeProblem[] {
  const spec = isJson(operator) && isJson(operator.spec) ? operator.spec : undefined;
  const controllers = spec && Array.isArray(spec.controllers) ? spec.controllers : [];
  return controllers.flatMap((c, i) => {
    if (!isJson(c) || !Array.isArray(c.sources) || c.pipeline === undefined) return [];
    const sources: PipelineSource[] = c.sources.flatMap((s) =>
      isJson(s) && typeof s.kind === 'string' ? [{ kind: s.kind, ty: sourceTy(s, s.kind, registry) }] : [],
    );
    return checkPipeline(c.pipeline, sources, ['spec', 'controllers', i, 'pipeline']);
  });
}
