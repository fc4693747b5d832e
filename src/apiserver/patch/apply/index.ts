export { serverSideApply, type ServerSideApplyOptions, type ServerSideApplyResult } from './apply.js';
export { trackUpdate, type TrackUpdateOptions } from './update.js';
export {
  builtinListType,
  schemaListType,
  type ListType,
  type ListTypeResolver,
  type MapListType,
  type MapType,
} from './list-types.js';
export { normaliseManagedFields, type ManagedFieldsEntry, type ManagedFieldsOperation } from './managed-fields.js';
export { ApplyConflictError, InvalidApplyError, ManagedFieldsError, type ApplyConflict } from './errors.js';
export type { JsonObject, JsonValue } from '../strategic/json.js';
