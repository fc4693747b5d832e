// A Secret's values never leave a preview: `flowops diff`, the pin dialog and pull-request comments
// show its keys, and whether each value changes, but not the value (Argo CD masks the same way).

import type { KubeObject } from '../kube/index.js';

export const MASKED = '<masked>';
export const MASKED_CHANGED = '<masked: changed>';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

const isSecret = (o: KubeObject | undefined): boolean => o?.apiVersion === 'v1' && o.kind === 'Secret';

type Values = Record<string, unknown>;
const valuesOf = (o: KubeObject | undefined, key: 'data' | 'stringData'): Values | undefined => {
  const v = (o as Record<string, unknown> | undefined)?.[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Values) : undefined;
};

function maskOne(o: KubeObject, before: KubeObject | undefined): KubeObject {
  const copy: KubeObject & Values = { ...o, metadata: { ...o.metadata } };
  for (const key of ['data', 'stringData'] as const) {
    const values = valuesOf(o, key);
    if (!values) continue;
    const old = valuesOf(before, key);
    copy[key] = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, before && old?.[k] !== v ? MASKED_CHANGED : MASKED]),
    );
  }
  const annotations = o.metadata.annotations;
  if (annotations?.[LAST_APPLIED] !== undefined) copy.metadata.annotations = { ...annotations, [LAST_APPLIED]: MASKED };
  return copy;
}

/**
 * Both sides of a Secret's comparison with every value masked; a value that differs from the live
 * one reads `<masked: changed>` on the new side, so the diff still shows which keys change.
 * Other kinds pass through unchanged.
 */
export function maskSecrets(
  live: KubeObject | undefined,
  desired: KubeObject | undefined,
): { live: KubeObject | undefined; desired: KubeObject | undefined } {
  if (!isSecret(live) && !isSecret(desired)) return { live, desired };
  return { live: live && maskOne(live, undefined), desired: desired && maskOne(desired, live) };
}
