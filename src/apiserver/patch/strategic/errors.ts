/**
 * HTTP status the real API server answers for each kind of SMP failure:
 * malformed directive lists are 400 BadRequest, a body that contradicts its own
 * `$retainKeys` (or nests lists) is 422, and everything else (missing merge key,
 * unknown `$patch` value…) leaks out of apimachinery as a plain error → 500.
 */
export type PatchErrorCode = 400 | 422 | 500;

export class PatchError extends Error {
  readonly code: PatchErrorCode;

  constructor(message: string, code: PatchErrorCode = 500) {
    super(message);
    this.name = 'PatchError';
    this.code = code;
  }
}

// Messages copied from k8s.io/apimachinery/pkg/util/mergepatch so kubectl users
// see the text they would get from a real cluster.
export const ERR_PRIMITIVE_LIST = 'invalid patch format of primitive list';
export const ERR_RETAIN_KEYS = 'invalid patch format of retainKeys';
export const ERR_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';
export const ERR_RETAIN_KEYS_MISMATCH = "patch content doesn't match retainKeys list";
export const ERR_LIST_OF_LISTS = 'lists of lists are not supported';
