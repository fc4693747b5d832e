// Builds the web view (ui/) with Vite into ui/dist, which `flowops up` serves at /ui/. A
// production install (`npm ci --omit=dev`) has no Vite: then it says so and the server answers
// /ui/ with how to build it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let vite;
try {
  vite = join(dirname(createRequire(join(root, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
} catch {
  vite = undefined;
}
if (!vite || !existsSync(vite) || !existsSync(join(root, 'ui', 'vite.config.ts'))) {
  process.stdout.write(
    'flowops build: web view skipped (no Vite or no ui/: a production install); /ui/ says how to build it\n',
  );
  process.exit(0);
}
const built = spawnSync(process.execPath, [vite, 'build', '--config', join(root, 'ui', 'vite.config.ts')], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(built.status ?? 1);
