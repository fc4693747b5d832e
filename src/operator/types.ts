// The Operator resource (dcontroller.io/v1alpha1) as the controller reads it (spec §1). Parsing is
// deliberately lenient where the original is (unknown source types fall back to Watcher) and
// strict where the original reports a critical error (no name, no source, no target).

export const OPERATOR_GROUP = 'dcontroller.io';
export const OPERATOR_VERSION = 'v1alpha1';
export const OPERATOR_API_VERSION = `${OPERATOR_GROUP}/${OPERATOR_VERSION}`;
export const OPERATOR_KIND = 'Operator';
export { VIEW_GROUP_SUFFIX, isViewGroup } from '../apiserver/index.js';
import { VIEW_GROUP_SUFFIX } from '../apiserver/index.js';
import { OperatorError } from './errors.js';
export const VIEW_VERSION = 'v1alpha1';

export type SourceType = 'Watcher' | 'OneShot' | 'Periodic';
export type TargetType = 'Updater' | 'Patcher';

/** A predicate tree (spec §1.3): a basic name, or exactly one of And / Or / Not. */
export type Predicate = string | { And: Predicate[] } | { Or: Predicate[] } | { Not: Predicate[] };

export interface ResourceSpec {
  /** Missing: a view of this operator; "" the core group. */
  apiGroup?: string;
  version?: string;
  kind: string;
}

export interface SourceSpec extends ResourceSpec {
  type?: SourceType;
  namespace?: string;
  labelSelector?: Record<string, unknown>;
  predicate?: Predicate;
  parameters?: { period?: string } & Record<string, unknown>;
}

export interface TargetSpec extends ResourceSpec {
  type?: TargetType;
}

export interface ControllerSpec {
  name: string;
  sources: SourceSpec[];
  pipeline?: unknown;
  target: TargetSpec;
}

export interface OperatorSpec {
  controllers: ControllerSpec[];
}

/** A source or target with its group and version decided (views: `<op>.view.dcontroller.io/v1alpha1`). */
export interface ResolvedResource {
  apiVersion: string;
  group: string;
  kind: string;
  isView: boolean;
}

export const viewGroup = (operator: string): string => `${operator}.${VIEW_GROUP_SUFFIX}`;

/** The controllers list, with only the shape checks the controller needs; per-controller problems surface in status. */
export function controllersOf(spec: unknown): Array<Partial<ControllerSpec> & Record<string, unknown>> {
  const list = (spec as { controllers?: unknown } | undefined)?.controllers;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (c): c is Partial<ControllerSpec> & Record<string, unknown> => typeof c === 'object' && c !== null,
  );
}

/** Checks one controller entry, throwing the critical error the status reports (spec §1.5). */
export function checkController(c: Partial<ControllerSpec>): ControllerSpec {
  if (typeof c.name !== 'string' || !c.name)
    throw new OperatorError('InvalidController', 'controller name is required');
  if (!Array.isArray(c.sources) || c.sources.length === 0)
    throw new OperatorError('InvalidController', `controller ${c.name}: at least one source is required`);
  for (const [i, s] of c.sources.entries()) {
    if (!s || typeof s !== 'object' || typeof s.kind !== 'string' || !s.kind)
      throw new OperatorError('InvalidController', `controller ${c.name}: sources[${i}].kind is required`);
  }
  if (!c.target || typeof c.target !== 'object' || typeof c.target.kind !== 'string' || !c.target.kind)
    throw new OperatorError('InvalidController', `controller ${c.name}: target.kind is required`);
  if (c.target.type !== undefined && c.target.type !== 'Updater' && c.target.type !== 'Patcher') {
    throw new OperatorError(
      'InvalidController',
      `controller ${c.name}: target.type must be Updater or Patcher, got ${JSON.stringify(c.target.type)}`,
    );
  }
  return c as ControllerSpec;
}

export function sourceType(s: SourceSpec): SourceType {
  // An unknown value falls back to Watcher, as in the original (spec §1.3).
  return s.type === 'OneShot' || s.type === 'Periodic' ? s.type : 'Watcher';
}
