// Directive keys of the strategic merge patch format
// (k8s.io/apimachinery/pkg/util/strategicpatch). They steer the merge and must
// never leak into a stored object.
export const PATCH_DIRECTIVE = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const SET_ELEMENT_ORDER = '$setElementOrder';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

/** Returned by a merge when `$patch: delete` removed the whole value. */
export const DELETED: unique symbol = Symbol('deleted');
export type Deleted = typeof DELETED;

/**
 * The list a `<directive>/<field>` key targets. Like the real server, any key
 * that merely starts with the directive name is taken as the directive, so
 * `$setElementOrder` without a field is malformed (null) rather than data.
 */
export function directiveTarget(key: string, directive: string): string | null | undefined {
  if (!key.startsWith(directive)) return undefined;
  const field = key.startsWith(`${directive}/`) ? key.slice(directive.length + 1) : '';
  return field === '' ? null : field;
}
