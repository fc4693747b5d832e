/** A selector kube-apiserver would reject; the message is the apiserver's, for a 400 BadRequest. */
export class SelectorError extends Error {
  override readonly name = 'SelectorError';
}
