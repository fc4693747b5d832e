import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { schemaOrArray, schemaOrBool, schemaOrStringArray } from './apiextensions.js';
import * as scalars from './scalars.js';
import {
  inline,
  list,
  map,
  message,
  MessageType,
  nullList,
  nullMap,
  nullPtr,
  ptr,
  req,
  type Row,
  type ValueType,
} from './schema.js';
import { DESCRIPTOR_FILE, GO_FIELDS_FILE, VENDOR_DIR, type GoField } from './vendor-files.js';

/**
 * The messages of k8s.io/api and k8s.io/apimachinery, built from their vendored generated.proto files (as one
 * protobufjs JSON descriptor) and the Go struct facts beside them. Loaded on the first protobuf body or answer:
 * Root.fromJSON of the precompiled descriptor takes about half the time parsing the .proto text does.
 */

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';
const APIEXTENSIONS = 'k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';

/** Messages whose Go types marshal to JSON as something other than an object of their fields. */
const SPECIAL: Record<string, ValueType> = {
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': scalars.intOrString,
  'k8s.io.apimachinery.pkg.api.resource.Quantity': scalars.quantity,
  [`${META}.Time`]: scalars.time,
  [`${META}.MicroTime`]: scalars.microTime,
  [`${META}.Duration`]: scalars.duration,
  [`${META}.FieldsV1`]: scalars.fieldsV1,
  'k8s.io.apimachinery.pkg.runtime.RawExtension': scalars.rawExtension,
  [`${APIEXTENSIONS}.JSON`]: scalars.rawJson('JSON'),
};

/** The unions of a CRD's schema, which need JSONSchemaProps's own type (see apiextensions.ts). */
const SCHEMA_UNIONS: Record<string, (props: ValueType) => ValueType> = {
  [`${APIEXTENSIONS}.JSONSchemaPropsOrArray`]: schemaOrArray,
  [`${APIEXTENSIONS}.JSONSchemaPropsOrBool`]: schemaOrBool,
  [`${APIEXTENSIONS}.JSONSchemaPropsOrStringArray`]: schemaOrStringArray,
};

export interface Loaded {
  root: protobuf.Root;
  goFields: Record<string, GoField[]>;
}

let loaded: Loaded | undefined;

/** The vendored descriptor and Go struct facts, read once (go-semantic-equal.ts reads them too). */
export function load(): Loaded {
  loaded ??= {
    root: protobuf.Root.fromJSON(
      JSON.parse(readFileSync(join(VENDOR_DIR, DESCRIPTOR_FILE), 'utf8')) as protobuf.INamespace,
    ),
    goFields: JSON.parse(readFileSync(join(VENDOR_DIR, GO_FIELDS_FILE), 'utf8')) as Record<string, GoField[]>,
  };
  return loaded;
}

const messages = new Map<string, ValueType>();

const fullNameOf = (t: protobuf.Type): string => t.fullName.replace(/^\./, '');

/** The ValueType for a message, by its full name without the leading dot. */
function typeOfMessage(t: protobuf.Type): ValueType {
  const name = fullNameOf(t);
  const special = SPECIAL[name];
  if (special) return special;
  let known = messages.get(name);
  if (!known) {
    const union: ((props: ValueType) => ValueType) | undefined = Object.hasOwn(SCHEMA_UNIONS, name)
      ? SCHEMA_UNIONS[name]
      : undefined;
    const props = union && load().root.lookup(`${APIEXTENSIONS}.JSONSchemaProps`);
    known =
      union && props instanceof protobuf.Type
        ? union(typeOfMessage(props))
        : (wrapperOf(t, name) ?? message(t.name, () => rowsOf(t, name)));
    messages.set(name, known);
  }
  return known;
}

/** A message with no Go struct and one `repeated items = 1`: a Go named slice (Verbs, ExtraValue). */
function wrapperOf(t: protobuf.Type, name: string): ValueType | undefined {
  const fields = t.fieldsArray;
  const only = fields[0];
  if (load().goFields[name] || fields.length !== 1 || !only || only.name !== 'items' || only.id !== 1 || !only.repeated)
    return undefined;
  return scalars.listWrapper(t.name, valueTypeOf(only));
}

function valueTypeOf(f: protobuf.Field): ValueType {
  f.resolve();
  if (f.resolvedType instanceof protobuf.Type) return typeOfMessage(f.resolvedType);
  switch (f.type) {
    case 'string':
      return scalars.string;
    case 'bool':
      return scalars.bool;
    case 'bytes':
      return scalars.bytes;
    case 'double':
      return scalars.double;
    case 'int32':
    case 'int64':
    case 'uint32':
    case 'uint64':
    case 'sint32':
    case 'sint64':
      return scalars.int;
    default:
      // Invariant: the descriptors are the generated k8s.io ones, which use only the types above.
      throw new Error(`protobuf descriptor: ${f.fullName} has type ${f.type}, which the codec does not handle`);
  }
}

/** Table rows in Go declaration order, with each field's presence from its Go type and json tag. */
function rowsOf(t: protobuf.Type, name: string): Row[] {
  const go = load().goFields[name];
  // Without a Go struct (none in k8s.io/api today): every field as a pointer, which keeps what is on the wire.
  if (!go)
    return t.fieldsArray.map((f) => [
      f.id,
      f.name,
      f.map ? map(valueTypeOf(f)) : f.repeated ? list(valueTypeOf(f)) : ptr(valueTypeOf(f)),
    ]);
  const rows: Row[] = [];
  for (const [goName, number, json, goType, omitempty] of go) {
    const f = t.fieldsById[number];
    if (!f || json === '-') continue;
    const vt = valueTypeOf(f);
    if (json === '') {
      if (vt instanceof MessageType) rows.push([number, '', inline(vt), goName]);
      continue;
    }
    if (f.map) rows.push([number, json, omitempty ? map(vt) : nullMap(vt), goName]);
    else if (f.repeated) rows.push([number, json, omitempty ? list(vt) : nullList(vt), goName]);
    else if (goType.startsWith('*')) rows.push([number, json, omitempty ? ptr(vt) : nullPtr(vt), goName]);
    else if (vt.struct || !omitempty) rows.push([number, json, req(vt), goName]);
    else rows.push([number, json, vt, goName]);
  }
  return rows;
}

/** The proto package of an API group-version: `apps/v1` → k8s.io.api.apps.v1, `v1` → k8s.io.api.core.v1. */
export function protoPackage(apiVersion: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  if (group === 'meta.k8s.io') return `k8s.io.apimachinery.pkg.apis.meta.${version}`;
  if (group === 'apiextensions.k8s.io') return `k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.${version}`;
  if (group === 'apiregistration.k8s.io') return `k8s.io.kube_aggregator.pkg.apis.apiregistration.${version}`;
  const pkg =
    group === '' ? 'core' : group === 'internal.apiserver.k8s.io' ? 'apiserverinternal' : group!.split('.')[0];
  return `k8s.io.api.${pkg}.${version}`;
}

/** The message of `kind` in `apiVersion` (an object, a list, a review kind), or undefined when there is none. */
export function kindMessage(apiVersion: string, kind: string): MessageType | undefined {
  return messageNamed(`${protoPackage(apiVersion)}.${kind}`);
}

const byName = new Map<string, MessageType | undefined>();

export function messageNamed(fullName: string): MessageType | undefined {
  if (byName.has(fullName)) return byName.get(fullName);
  const found = load().root.lookup(fullName);
  const vt = found instanceof protobuf.Type ? typeOfMessage(found) : undefined;
  const m = vt instanceof MessageType ? vt : undefined;
  byName.set(fullName, m);
  return m;
}

export const metaMessage = (kind: string): MessageType | undefined => messageNamed(`${META}.${kind}`);
