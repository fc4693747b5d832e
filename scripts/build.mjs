// `npm run build` (and `prepare`, which `npm ci` runs): builds the web view (scripts/build-ui.mjs),
// then bundles the CLI into dist/ (scripts/bundle-cli.mjs) and stamps it (scripts/build-stamp.mjs),
// so bin/flowops.js starts without transpiling. Type checking is `npm run typecheck`'s job. A
// production install without src/ (the image's deps stage) has nothing to bundle: then it says so
// and leaves bin/flowops.js to run src/ through tsx.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const step = (script) => {
  const r = spawnSync(process.execPath, [join(root, 'scripts', script)], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
// First, and on its own: it skips by itself where Vite is absent.
step('build-ui.mjs');
if (!existsSync(join(root, 'src', 'cli', 'main.ts'))) {
  process.stdout.write(
    'flowops build: skipped (no src/: a production install); bin/flowops.js runs src/ through tsx\n',
  );
  process.exit(0);
}
step('bundle-cli.mjs');
step('build-stamp.mjs');
