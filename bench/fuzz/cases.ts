// Turns a seed into cases: each a kind, a class of mutation, and the requests that carry it.
import { encodeKubeProtobuf, PROTOBUF_MEDIA_TYPE } from '../../src/apiserver/protobuf/index.js';
import { isObject } from '../../src/apiserver/objects/meta.js';
import type { JsonObject } from '../../src/apiserver/registry/types.js';
import { apiVersionOfKind, baseObject, collectionPath, FUZZ_KINDS, kindKey, type FuzzKind } from './kinds.js';
import { Prng } from './prng.js';
import { kindSchemas, resolve, sitesOf, typeOf, enumValues, type Site } from './schema.js';
import {
  EMPTY_NAME_KINDS_EXCLUDED,
  BAD_LABEL_KEYS,
  BAD_LABEL_VALUES,
  badNames,
  changedValue,
  deleteAt,
  OUT_OF_RANGE,
  setAt,
  typedValue,
  wrongTypeValue,
} from './values.js';

export interface FuzzStep {
  method: 'POST' | 'PUT';
  path: string;
  contentType: string;
  body: string | Buffer;
  /** Builds the body from the previous step's answer (an update of what the server stored). */
  edit?: (stored: JsonObject) => void;
}

export interface FuzzCase {
  id: number;
  /** The kind's label (`apps/v1 Deployment`). */
  kind: string;
  /** The class of mutation and the field it touched, indices as `*` (how differences are grouped). */
  mutation: string;
  steps: FuzzStep[];
}

type Mutator = (c: Ctx) => Omit<FuzzCase, 'id' | 'kind'> | undefined;

interface Ctx {
  id: number;
  k: FuzzKind;
  ns: string;
  /** The object's name in this case (`fz-<id>`, or what the kind's validation requires). */
  name: string;
  rng: Prng;
  base: () => JsonObject;
  sites: Site[];
}

const shape = (s: Site): string => s.path.map((p) => (typeof p === 'number' ? '*' : p)).join('.');
const json = (o: JsonObject): string => JSON.stringify(o);

/** Protobuf when asked and the object has a protobuf form (a value it cannot carry stays JSON). */
function encode(obj: JsonObject, protobuf: boolean): Buffer | undefined {
  if (!protobuf) return undefined;
  try {
    return encodeKubeProtobuf(obj);
  } catch {
    return undefined;
  }
}

function create(c: Ctx, obj: JsonObject, protobuf = false): FuzzStep {
  const body = encode(obj, protobuf) ?? json(obj);
  protobuf = typeof body !== 'string';
  return {
    method: 'POST',
    path: collectionPath(c.k, c.ns),
    contentType: protobuf ? PROTOBUF_MEDIA_TYPE : 'application/json',
    body,
  };
}

function put(c: Ctx, name: string, obj: JsonObject, sub = ''): FuzzStep {
  return {
    method: 'PUT',
    path: `${collectionPath(c.k, c.ns)}/${name}${sub}`,
    contentType: 'application/json',
    body: json(obj),
  };
}

/** A PUT of the object the create answered, changed by `edit`, as a client's read-modify-write sends it. */
function putStored(c: Ctx, edit: (stored: JsonObject) => void, sub = ''): FuzzStep {
  return { ...put(c, c.name, {}, sub), body: '(the stored object, edited)', edit };
}

/** A create, sometimes as protobuf when the mutation kept every value's type. */
function created(c: Ctx, mutation: string, obj: JsonObject, typed: boolean): Omit<FuzzCase, 'id' | 'kind'> {
  const step = create(c, obj, typed && c.rng.chance(30));
  return { mutation: `${mutation}${typeof step.body === 'string' ? '' : ' (protobuf)'}`, steps: [step] };
}

const withSites = (c: Ctx, pred: (s: Site) => boolean): Site[] => c.sites.filter(pred);

const MUTATORS: Array<[weight: number, name: string, m: Mutator]> = [
  [5, 'valid', (c) => created(c, 'valid', c.base(), true)],
  [
    10,
    'drop',
    (c) => {
      const s = c.rng.maybe(withSites(c, (x) => x.value !== undefined));
      if (!s) return undefined;
      const o = c.base();
      deleteAt(o, s.path);
      return created(c, `drop ${shape(s)}`, o, true);
    },
  ],
  [
    14,
    'wrong-type',
    (c) => {
      const s = c.rng.maybe(c.sites);
      if (!s) return undefined;
      const o = c.base();
      setAt(o, s.path, wrongTypeValue(s.schema, c.rng));
      return created(c, `wrong-type ${shape(s)}`, o, false);
    },
  ],
  [
    8,
    'bad-enum',
    (c) => {
      const enums = withSites(c, (x) => enumValues(x.schema).length > 0);
      if (!enums.length) return undefined;
      const s = c.rng.pick(enums);
      const o = c.base();
      setAt(o, s.path, c.rng.pick(['Bogus', 'always', '']));
      return created(c, `bad-enum ${shape(s)}`, o, true);
    },
  ],
  [
    8,
    'bad-name',
    (c) => {
      const o = c.base();
      const names = EMPTY_NAME_KINDS_EXCLUDED.has(c.k.kind) ? badNames(c.id) : [...badNames(c.id), ''];
      setAt(o, ['metadata', 'name'], c.rng.pick(names));
      return created(c, 'bad-name', o, true);
    },
  ],
  [
    8,
    'bad-label',
    (c) => {
      const o = c.base();
      const key = c.rng.chance(50);
      const labels = key ? { [c.rng.pick(BAD_LABEL_KEYS)]: 'v' } : { app: c.rng.pick(BAD_LABEL_VALUES) };
      setAt(o, ['metadata', c.rng.chance(75) ? 'labels' : 'annotations'], labels);
      return created(c, `bad-label ${key ? 'key' : 'value'}`, o, key);
    },
  ],
  [
    10,
    'number-range',
    (c) => {
      const ints = withSites(c, (x) => typeOf(x.schema) === 'integer');
      if (!ints.length) return undefined;
      const s = c.rng.pick(ints);
      const o = c.base();
      const v = c.rng.pick(OUT_OF_RANGE);
      setAt(o, s.path, v);
      return created(c, `number-range ${shape(s)}`, o, Number.isInteger(v) && Math.abs(Number(v)) < 2 ** 31);
    },
  ],
  [
    12,
    'add-field',
    (c) => {
      const s = c.rng.maybe(withSites(c, (x) => x.value === undefined));
      if (!s) return undefined;
      const o = c.base();
      setAt(o, s.path, typedValue(s.schema, c.rng));
      return created(c, `add-field ${shape(s)}`, o, true);
    },
  ],
  [
    12,
    'update',
    (c) => {
      const s = c.rng.maybe(c.sites.filter((x) => x.value === undefined || typeof x.value !== 'object'));
      if (!s) return undefined;
      const value = s.value === undefined ? typedValue(s.schema, c.rng) : changedValue(s.value, s.schema, c.rng);
      return {
        mutation: `update ${shape(s)}`,
        steps: [create(c, c.base()), putStored(c, (o) => setAt(o, s.path, value))],
      };
    },
  ],
  [
    6,
    'status',
    (c) => {
      if (!c.k.status) return undefined;
      const ks = kindSchemas(c.k);
      const status =
        isObject(ks.root.properties) && isObject(ks.root.properties.status)
          ? resolve(ks.root.properties.status, ks.schemas)
          : {};
      const props = isObject(status.properties) ? Object.entries(status.properties) : [];
      if (!props.length) return undefined;
      const [name, p] = c.rng.pick(props);
      const schema = isObject(p) ? resolve(p, ks.schemas) : {};
      const value = c.rng.chance(70) ? typedValue(schema, c.rng) : wrongTypeValue(schema, c.rng);
      const edit = (o: JsonObject): void => setAt(o, ['status', name], value);
      return { mutation: `status ${name}`, steps: [create(c, c.base()), putStored(c, edit, '/status')] };
    },
  ],
  [
    3,
    'malformed',
    (c) => {
      const av = apiVersionOfKind(c.k);
      const texts = [
        '{',
        '{bad}',
        '[1]',
        '"x"',
        `{"apiVersion":"${av}","kind":"${c.k.kind}","metadata":{"name":"${c.name}"},}`,
        `{"apiVersion":"${av}","kind":"${c.k.kind}","metadata":"x"}`,
        `{"apiVersion":"${av}","kind":"Other","metadata":{"name":"${c.name}"}}`,
      ];
      const body = c.rng.pick(texts);
      return {
        mutation: `malformed ${body.length < 12 ? body : body.replace(c.name, 'NAME').slice(-40)}`,
        steps: [{ ...create(c, {}), body }],
      };
    },
  ],
  [
    3,
    'put-missing',
    (c) => {
      const o = c.base();
      const other = c.rng.chance(60);
      return {
        mutation: `put-missing ${other ? 'name differs' : 'same name'}`,
        steps: [put(c, other ? `fz-${c.id}-other` : c.name, o)],
      };
    },
  ],
];

const TOTAL = MUTATORS.reduce((n, [w]) => n + w, 0);

function pickMutator(rng: Prng): Mutator {
  let r = rng.below(TOTAL);
  for (const [w, , m] of MUTATORS) {
    if (r < w) return m;
    r -= w;
  }
  return MUTATORS[0]![2];
}

/** `n` cases from `seed`: the same seed gives the same cases (kinds, mutations, bodies). */
export function generateCases(seed: number, n: number, ns: string): FuzzCase[] {
  const rng = new Prng(seed);
  const perKind = new Map(FUZZ_KINDS.map((k) => [kindKey(k), sitesOf(k.seed({ id: 0, ns }), kindSchemas(k))]));
  const out: FuzzCase[] = [];
  for (let id = 0; out.length < n; id++) {
    const k = rng.pick(FUZZ_KINDS);
    const base = (): JsonObject => baseObject(k, { id, ns });
    const sites = perKind.get(kindKey(k)) ?? [];
    const c = pickMutator(rng)({ id, k, ns, name: k.name(id), rng, base, sites });
    if (c) out.push({ id, kind: k.label, ...c });
  }
  return out;
}
