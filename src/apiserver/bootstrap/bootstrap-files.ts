import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../package-root.js';

/**
 * Written by scripts/gen-bootstrap-objects.ts from a real kube-apiserver of the version served; under src/
 * like the vendored OpenAPI documents, so src/, dist/ and the CLI bundle find it alike.
 */
export const BOOTSTRAP_OBJECTS_FILE = join(PACKAGE_ROOT, 'src', 'apiserver', 'bootstrap', 'bootstrap-objects.json');
