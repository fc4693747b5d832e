// Records what the build in dist/ was made from (the newest mtime and the number of files under
// src/), so bin/flowops.js can tell a current build from a stale one without rebuilding.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceState } from '../bin/source-state.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
writeFileSync(join(root, 'dist', '.build-stamp'), JSON.stringify(sourceState(join(root, 'src'))));
