// `npm run build` (and `prepare`, which `npm ci` runs): builds the web view (scripts/build-ui.mjs),
// then compiles src/ into dist/ and stamps it (scripts/build-stamp.mjs), so bin/flowops.js starts
// without transpiling. A production install
// (`npm ci --omit=dev`, the image's deps stage) has neither TypeScript nor always src/: then it
// says so and leaves bin/flowops.js to run src/ through tsx.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// First, and on its own: it skips by itself where Vite is absent, as the tsc step below does.
const ui = spawnSync(process.execPath, [join(root, 'scripts', 'build-ui.mjs')], { stdio: 'inherit' });
if (ui.status !== 0) process.exit(ui.status ?? 1);
// The package's `exports` hide bin/tsc; its package.json is exported and sits beside it.
let tsc;
try {
  tsc = join(dirname(createRequire(join(root, 'package.json')).resolve('typescript/package.json')), 'bin', 'tsc');
} catch {
  tsc = undefined;
}
if (!tsc || !existsSync(tsc) || !existsSync(join(root, 'src')) || !existsSync(join(root, 'tsconfig.build.json'))) {
  process.stdout.write('flowops build: skipped (no TypeScript or no src/: a production install); bin/flowops.js runs src/ through tsx\n');
  process.exit(0);
}
const built = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const stamped = spawnSync(process.execPath, [join(root, 'scripts', 'build-stamp.mjs')], { stdio: 'inherit' });
process.exit(stamped.status ?? 1);
