// An object as `flowops diff` compares it: without server-set noise (src/kube/server-noise.ts),
// without status (a commit never sets it; the controllers do), and without the revision
// annotation, which every commit changes on every object and would bury the real changes.

import { REVISION_ANNOTATION } from '../sync/provenance.js';
import { objectYaml, withoutServerNoise, type KubeObject } from '../kube/index.js';

export function comparableYaml(obj: KubeObject | undefined): string {
  return obj ? objectYaml(comparableObject(obj)) : '';
}

export function comparableObject(obj: KubeObject): KubeObject {
  const copy = withoutServerNoise(obj);
  delete copy.status;
  const annotations = copy.metadata.annotations;
  if (annotations) {
    delete annotations[REVISION_ANNOTATION];
    if (!Object.keys(annotations).length) delete copy.metadata.annotations;
  }
  return copy;
}
