// The data types a commit's templates are checked against, built once per registry instead of once
// per step of every Flow: a commit's Flows watch a few kinds and declare steps alike, so the same
// `.Resource`, `.Steps.<name>.Outputs` and `.Children` types come up thousands of times. One type
// object per distinct type also lets a template's findings be kept by its text and the identity of
// its data's type (`findings`): identical templates across the Flows are checked once.
import { childrenTy, dataTy, outputsOf, servedObject } from './data-types.js';
import type { TemplateFinding } from './problems.js';
import type { SchemaRegistry } from './registry.js';
import { isJson, type Json } from './schema.js';
import { UNKNOWN, type ObjectTy, type Ty } from './types.js';

/** The steps whose outputs a template sees, in order: one object per distinct list, with an id for keys. */
export interface StepsSoFar {
  readonly id: number;
  readonly steps: ReadonlyArray<{ name: string; outputs: ObjectTy }>;
}

/** What else the data holds: `.Error` (onError), `.Child` (readyWhen), `.Children` (status). */
export interface DataExtras {
  error?: boolean;
  child?: boolean;
  children?: ObjectTy;
}

/** By the templates' total length: findings are small, the key (the text) is most of an entry. */
const MAX_CHARS = 4 * 1024 * 1024;

/** What of a step outputsOf reads (data-types.ts): equal keys give equal outputs. */
function outputsKey(step: Json): string {
  const head = `${String(step.name)}\u0000${String(step.type)}`;
  if (step.type === 'template') {
    const chart = isJson(step.chart) ? step.chart : undefined;
    return `${head}\u0000${step.engine === 'helm' && chart !== undefined}\u0000${chart?.verify !== undefined}`;
  }
  if (step.type !== 'kubectl') return head;
  if (step.action !== 'get') return `${head}\u0000${String(step.action)}`;
  const target = isJson(step.target) ? step.target : {};
  return JSON.stringify([step.name, step.type, step.action, target.apiVersion, target.kind, step.outputs]);
}

export class FlowTypes {
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  private readonly served = new Map<string, Ty>();
  private readonly outputs = new Map<string, ObjectTy>();
  private readonly data = new Map<string, ObjectTy>();
  private readonly lists = new Map<string, StepsSoFar>();
  readonly noSteps: StepsSoFar = { id: 0, steps: [] };
  private readonly children = new Map<string, ObjectTy>();
  /**
   * By the template's text, then by its data type's id and the mode. One commit's types live as
   * long as its registry, so a plain Map with a budget of text does: nothing is evicted within a
   * commit, and past the budget a template is checked each time.
   */
  private readonly checked = new Map<string, Map<string, readonly TemplateFinding[]>>();
  private checkedChars = 0;

  constructor(private readonly registry: SchemaRegistry) {}

  /** A number per type object, for keys (types are compared by identity: each is built once here). */
  private id(ty: Ty): number {
    let id = this.ids.get(ty);
    if (id === undefined) this.ids.set(ty, (id = this.nextId++));
    return id;
  }

  /** The watched kind's objects as the API server serves them; unknown without both names. */
  resource(apiVersion: unknown, kind: unknown): Ty {
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') return UNKNOWN;
    const key = `${apiVersion}\u0000${kind}`;
    let ty = this.served.get(key);
    if (!ty) this.served.set(key, (ty = servedObject(this.registry.tyOf(apiVersion, kind))));
    return ty;
  }

  outputsOf(step: Json): ObjectTy {
    const key = outputsKey(step);
    let ty = this.outputs.get(key);
    if (!ty) this.outputs.set(key, (ty = outputsOf(step, this.registry)));
    return ty;
  }

  /** `.Children` for the kinds (kind → apiVersion) a Flow's manifests apply. */
  childrenOf(kinds: ReadonlyMap<string, string>): ObjectTy {
    const key = JSON.stringify([...kinds]);
    let ty = this.children.get(key);
    if (!ty) this.children.set(key, (ty = childrenTy(kinds, this.registry)));
    return ty;
  }

  /** `steps` and then the step `name` with `outputs`. */
  withStep(steps: StepsSoFar, name: string, outputs: ObjectTy): StepsSoFar {
    const key = `${steps.id}\u0000${this.id(outputs)}\u0000${name}`;
    let next = this.lists.get(key);
    if (!next) this.lists.set(key, (next = { id: this.nextId++, steps: [...steps.steps, { name, outputs }] }));
    return next;
  }

  /** The type of the data a template sees (data-types.ts). */
  dataOf(resource: Ty, steps: StepsSoFar, extras: DataExtras = {}): ObjectTy {
    const { error = false, child = false, children } = extras;
    const key = `${this.id(resource)}\u0000${steps.id}\u0000${error}\u0000${child}\u0000${children ? this.id(children) : 0}`;
    let ty = this.data.get(key);
    if (!ty) {
      ty = dataTy({
        resource,
        steps: steps.steps,
        ...(error ? { error } : {}),
        ...(child ? { child } : {}),
        ...(children ? { children } : {}),
      });
      this.data.set(key, ty);
    }
    return ty;
  }

  /**
   * The findings of the template `text` checked in `mode` against `root` (one of this registry's
   * types), computed by `check` once per text, mode and type.
   */
  findings(
    text: string,
    mode: string,
    root: ObjectTy,
    check: () => readonly TemplateFinding[],
  ): readonly TemplateFinding[] {
    const key = `${this.id(root)}\u0000${mode}`;
    let byType = this.checked.get(text);
    let found = byType?.get(key);
    if (!found) {
      found = check();
      if (!byType && this.checkedChars + text.length <= MAX_CHARS) {
        this.checkedChars += text.length;
        this.checked.set(text, (byType = new Map()));
      }
      byType?.set(key, found);
    }
    return found;
  }
}

const byRegistry = new WeakMap<SchemaRegistry, FlowTypes>();

/** The types of `registry`'s commit, built as its Flows ask for them. */
export function flowTypesOf(registry: SchemaRegistry): FlowTypes {
  let types = byRegistry.get(registry);
  if (!types) byRegistry.set(registry, (types = new FlowTypes(registry)));
  return types;
}
