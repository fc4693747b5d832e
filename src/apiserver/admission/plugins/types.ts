import type { ObjectStore, Operation, WriteOptions } from '../../objects/object-store.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { JsonObject, ResourceType } from '../../registry/types.js';

/** What a built-in admission plugin is asked about one write (admission.Attributes, reduced). */
export interface PluginAttributes {
  t: ResourceType;
  operation: Operation;
  namespace: string;
  name: string;
  subresource: string;
  object: JsonObject;
  oldObject: JsonObject | undefined;
  dryRun: boolean;
}

/**
 * One of kube-apiserver's compiled-in admission plugins (plugin/pkg/admission/…). The phases split
 * upstream's Admit in two, so that what a plugin sets is owned by no field manager while its
 * refusals still come before field validation, as Admit's do:
 * - `admit`: the refusals of Admit (and changes a later field check must see), before validation;
 * - `mutate`: what Admit sets, after validation and the field manager;
 * - `validate`: Validate, after every plugin's `mutate`.
 */
export interface BuiltinPlugin {
  /** The name kube-apiserver's --enable-admission-plugins knows it by. */
  readonly name: string;
  admit?(a: PluginAttributes): void;
  mutate?(a: PluginAttributes): void;
  validate?(a: PluginAttributes, opts: WriteOptions): void;
}

/** What the plugins read: the store (as upstream's informers) and the registry to find kinds. */
export interface PluginContext {
  objects: ObjectStore;
  registry: ResourceRegistry;
}
