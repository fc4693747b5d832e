// The type of the data a Flow's templates see: `.Resource` (the watched kind), `.Steps.<name>.Outputs`
// (what each earlier step produces, by its type), `.Now`, `.Flow`, and where they exist `.Error`,
// `.Children.<Kind>.<name>` and `.Child`.

import type { SchemaRegistry } from './registry.js';
import { isJson, type Json } from './schema.js';
import {
  arrayOf,
  INTEGER,
  present,
  record,
  STRING,
  UNKNOWN,
  withFields,
  type Field,
  type ObjectTy,
  type Ty,
} from './types.js';

/** Set on every object the API server returns, whatever its schema says about them. */
const ALWAYS_SET_METADATA = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp']);

/** A watched object or child: metadata and spec are there to read (spec: by convention, not by schema). */
export function servedObject(ty: Ty): Ty {
  if (ty.kind !== 'object') return ty;
  return override(ty, (name, f) => {
    if (name === 'spec') return { ...f, mayBeAbsent: false };
    if (name === 'metadata')
      return {
        ty:
          f.ty.kind === 'object'
            ? override(f.ty, (n, g) => (ALWAYS_SET_METADATA.has(n) ? { ...g, mayBeAbsent: false } : g))
            : f.ty,
        mayBeAbsent: false,
      };
    return f;
  });
}

/** `ty` with its fields changed by `change`, each worked out once: templates read the same few fields again and again. */
function override(ty: ObjectTy, change: (name: string, f: Field) => Field): ObjectTy {
  const changed = new Map<string, Field | undefined>();
  return withFields(ty, (n) => {
    if (changed.has(n)) return changed.get(n);
    const f = ty.field(n);
    const g = f && change(n, f);
    changed.set(n, g);
    return g;
  });
}

const OBJECT_OUTPUTS = {
  name: present(STRING),
  namespace: present(STRING),
  uid: present(STRING),
  resourceVersion: present(STRING),
};

/** `.spec.replicas` or `{.spec.replicas}`: a plain field path, typed from the target's schema; else unknown. */
function jsonPathTy(target: Ty, path: string): Ty {
  const m = /^\{?\.?([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\}?$/.exec(path.trim());
  if (!m?.[1]) return UNKNOWN;
  let ty: Ty = target;
  for (const seg of m[1].split('.')) {
    if (ty.kind !== 'object') return UNKNOWN;
    ty = ty.field(seg)?.ty ?? ty.rest ?? UNKNOWN;
  }
  return ty;
}

function literalString(v: unknown): string | undefined {
  return typeof v === 'string' && !v.includes('{{') ? v : undefined;
}

/** What a step puts in `.Steps.<name>.Outputs`, as its executor produces it. */
export function outputsOf(step: Json, registry: SchemaRegistry): ObjectTy {
  const what = `the outputs of step "${String(step.name)}"`;
  const declared = isJson(step.outputs) ? Object.keys(step.outputs) : [];
  switch (step.type) {
    case 'kubectl': {
      switch (step.action) {
        case 'apply':
          return record(what, { applied: present(arrayOf(STRING)), ...OBJECT_OUTPUTS });
        case 'delete':
          return record(what, { deleted: present(INTEGER) });
        case 'patch':
          return record(what, OBJECT_OUTPUTS);
        case 'wait':
          return record(what, { condition: present(STRING), ...OBJECT_OUTPUTS });
        case 'get': {
          const t = isJson(step.target) ? step.target : {};
          const av = literalString(t.apiVersion);
          const kind = literalString(t.kind);
          const target = av && kind ? servedObject(registry.tyOf(av, kind)) : UNKNOWN;
          if (declared.length === 0) return record(what, { object: present(target) });
          const outputs = isJson(step.outputs) ? step.outputs : {};
          return record(
            what,
            Object.fromEntries(declared.map((k) => [k, present(jsonPathTy(target, String(outputs[k])))])),
          );
        }
        default:
          return record(what, {}, UNKNOWN);
      }
    }
    case 'template': {
      // A chart from a repository also says what was rendered (src/executors/template-chart.ts).
      const pulled = step.engine === 'helm' && isJson(step.chart);
      // With chart.verify, who signed its provenance too.
      const verified = pulled && isJson(step.chart) && step.chart.verify !== undefined;
      const chart = record('the pulled chart', {
        repository: present(STRING),
        name: present(STRING),
        version: present(STRING),
        digest: present(STRING),
        ...(verified ? { signer: present(STRING) } : {}),
      });
      const fields = { applied: present(arrayOf(STRING)), ...OBJECT_OUTPUTS };
      return record(what, pulled ? { ...fields, chart: present(chart) } : fields);
    }
    case 'script':
      // Whatever the script writes to $FLOWOPS_OUTPUTS, always as text.
      return record(what, { exitCode: present(INTEGER), stdout: present(STRING) }, STRING);
    case 'http':
      // The JSON answer's own top-level fields are outputs too, so any other name may exist.
      return record(
        what,
        {
          status: present(INTEGER),
          headers: present(record('the response headers', {}, STRING)),
          body: present(UNKNOWN),
        },
        UNKNOWN,
      );
    default:
      return record(what, {}, UNKNOWN);
  }
}

export interface DataContext {
  resource: Ty;
  /** The steps whose outputs exist here, in order. */
  steps: ReadonlyArray<{ name: string; outputs: ObjectTy }>;
  error?: boolean;
  children?: ObjectTy;
  child?: boolean;
}

export function dataTy(ctx: DataContext): ObjectTy {
  const steps = record(
    'the steps run before this one',
    Object.fromEntries(
      ctx.steps.map((s) => [s.name, present(record(`step "${s.name}"`, { Outputs: present(s.outputs) }))]),
    ),
    // A step that does not exist or runs later is reported by the structural check already.
    UNKNOWN,
  );
  const fields: Record<string, Field> = {
    Resource: present(ctx.resource),
    Steps: present(steps),
    Now: present(STRING),
    Flow: present(record('the Flow', { name: present(STRING), namespace: { ty: STRING, mayBeAbsent: false } })),
  };
  if (ctx.error)
    fields.Error = present(
      record('the error', { step: present(STRING), reason: present(STRING), message: present(STRING) }),
    );
  if (ctx.children) fields.Children = present(ctx.children);
  if (ctx.child) fields.Child = present(UNKNOWN);
  return record('the template data', fields);
}

/** `.Children.<Kind>`: name to object, for each kind the Flow's manifests apply (or a common built-in). */
export function childrenTy(kinds: ReadonlyMap<string, string>, registry: SchemaRegistry): ObjectTy {
  const fields: Record<string, Field> = {};
  for (const [kind, apiVersion] of kinds)
    fields[kind] = present(record(`the ${kind} children`, {}, servedObject(registry.tyOf(apiVersion, kind))));
  const other = new Map<string, ObjectTy>();
  const base = record('the children', fields, UNKNOWN);
  return {
    ...base,
    field(name) {
      const f = base.field(name);
      if (f) return f;
      const av = registry.apiVersionOfKind(name);
      if (!av) return undefined;
      let ty = other.get(name);
      if (!ty) other.set(name, (ty = record(`the ${name} children`, {}, servedObject(registry.tyOf(av, name)))));
      return present(ty);
    },
  };
}
