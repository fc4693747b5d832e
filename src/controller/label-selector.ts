import { labelSelectorFromMatch, labelSelectorToString } from '../apiserver/selectors/index.js';

/** A Flow's `watch.labelSelector` (metav1.LabelSelector) as the query-string form the API takes. */
export function labelSelectorString(sel: unknown): string | undefined {
  if (!sel || typeof sel !== 'object') return undefined;
  const s = labelSelectorToString(labelSelectorFromMatch(sel as Parameters<typeof labelSelectorFromMatch>[0]));
  return s || undefined;
}
