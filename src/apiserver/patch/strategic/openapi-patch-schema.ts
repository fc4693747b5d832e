// A built-in kind's patch metadata (builtin-schema.ts's FieldSchema) read from its vendored OpenAPI v3
// schema, where kube-apiserver's own generator wrote the Go struct tags and markers down: strategic merge
// patch's `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key`, and server-side apply's
// `x-kubernetes-list-type` / `x-kubernetes-list-map-keys` / `x-kubernetes-map-type` (on a field, or on
// the type it names, as ObjectReference and LabelSelector are atomic wherever they are used). A key
// field's `default` (other than a zero) is the value the real server defaults it to before apply sees the element.
import { vendoredOpenApi } from '../../openapi/vendored.js';
import type { FieldSchema, GroupVersionKind } from './builtin-schema.js';
import type { JsonPrimitive } from './json.js';

type Schema = Record<string, unknown>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const REF = '#/components/schemas/';

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema name a property refers to (`$ref`, or the `allOf: [{$ref}]` form v3 documents use). */
function refName(s: Schema): string | undefined {
  const direct = typeof s.$ref === 'string' ? s.$ref : undefined;
  const first = Array.isArray(s.allOf) && isSchema(s.allOf[0]) ? s.allOf[0].$ref : undefined;
  const ref = direct ?? (typeof first === 'string' ? first : undefined);
  return ref?.startsWith(REF) ? ref.slice(REF.length) : undefined;
}

class PatchSchemaReader {
  /** Fields of each named schema, shared by every use of it (and so able to refer to itself). */
  private readonly fieldsByName = new Map<string, Record<string, FieldSchema>>();

  constructor(private readonly schemas: Schema) {}

  private named(name: string): Schema | undefined {
    const s = this.schemas[name];
    return isSchema(s) ? s : undefined;
  }

  /** The node of one property: its own extensions and those of the type it names. */
  node(property: Schema): FieldSchema {
    const name = refName(property);
    const target = (name && this.named(name)) || property;
    const ext = (key: string): unknown => property[key] ?? target[key];
    const out: Mutable<FieldSchema> = {};
    const strategy = String(ext('x-kubernetes-patch-strategy') ?? '').split(',');
    if (target.type === 'array' || property.type === 'array') {
      const items = isSchema(property.items) ? property.items : isSchema(target.items) ? target.items : {};
      const itemName = refName(items);
      const item = (itemName && this.named(itemName)) || items;
      const mergeKey = ext('x-kubernetes-patch-merge-key');
      if (strategy.includes('merge')) {
        if (typeof mergeKey === 'string') out.mergeKey = mergeKey;
        else out.mergeScalars = true;
      }
      const listType = ext('x-kubernetes-list-type');
      const keys = ext('x-kubernetes-list-map-keys');
      if (listType === 'map' && Array.isArray(keys)) {
        out.mapKeys = keys.map(String);
        const defaults = this.keyDefaults(item, out.mapKeys);
        if (defaults) out.keyDefaults = defaults;
      } else out.applyList = listType === 'set' ? 'set' : 'atomic';
      const fields = itemName ? this.fieldsOf(itemName) : this.inlineFields(item);
      if (Object.keys(fields).length) out.fields = fields;
      return out;
    }
    // An object schema that says nothing of its contents (RawExtension) is one untyped value to
    // structured-merge-diff, owned whole.
    const opaque =
      target.type === 'object' && target.properties === undefined && target.additionalProperties === undefined;
    if (ext('x-kubernetes-map-type') === 'atomic' || opaque) out.atomicMap = true;
    if (strategy.includes('replace')) out.replaceMap = true;
    const fields = name ? this.fieldsOf(name) : this.inlineFields(property);
    if (Object.keys(fields).length) out.fields = fields;
    return out;
  }

  private fieldsOf(name: string): Record<string, FieldSchema> {
    let fields = this.fieldsByName.get(name);
    if (!fields) {
      fields = {};
      this.fieldsByName.set(name, fields);
      Object.assign(fields, this.inlineFields(this.named(name) ?? {}));
    }
    return fields;
  }

  private inlineFields(s: Schema): Record<string, FieldSchema> {
    const out: Record<string, FieldSchema> = {};
    if (!isSchema(s.properties)) return out;
    for (const [k, p] of Object.entries(s.properties)) if (isSchema(p)) out[k] = this.node(p);
    return out;
  }

  private keyDefaults(item: Schema, keys: readonly string[]): Record<string, JsonPrimitive> | undefined {
    const props = isSchema(item.properties) ? item.properties : {};
    const out: Record<string, JsonPrimitive> = {};
    for (const k of keys) {
      const p = props[k];
      const d = isSchema(p) ? p.default : undefined;
      // Only a real default: the generator writes the zero value (`""`) as the default of every
      // required field, which tells nothing about an element that leaves its key out.
      if (
        (typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean') &&
        d !== '' &&
        d !== 0 &&
        d !== false
      )
        out[k] = d;
    }
    return Object.keys(out).length ? out : undefined;
  }
}

const readers = new WeakMap<Schema, PatchSchemaReader>();
const byKind = new Map<string, FieldSchema | undefined>();

/** The patch metadata of a built-in kind's fields (metadata aside), or undefined when no schema is vendored for it. */
export function openApiPatchSchema(gvk: GroupVersionKind): FieldSchema | undefined {
  const key = `${gvk.group}/${gvk.version}/${gvk.kind}`;
  if (!byKind.has(key)) {
    const found = vendoredOpenApi.kindSchema(gvk.group, gvk.version, gvk.kind);
    let node: FieldSchema | undefined;
    if (found) {
      let reader = readers.get(found.schemas);
      if (!reader) readers.set(found.schemas, (reader = new PatchSchemaReader(found.schemas)));
      node = reader.node(found.root);
    }
    byKind.set(key, node);
  }
  return byKind.get(key);
}
