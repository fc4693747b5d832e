#!/usr/bin/env node
// Runs the bundled JavaScript in dist/ (built by `npm ci` through `prepare`, or `npm run build`)
// when it is current, and the TypeScript sources through tsx otherwise: a stale build is never
// what runs, and working on src/ needs no build step.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceState } from './source-state.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function buildIsCurrent() {
  try {
    const built = JSON.parse(readFileSync(join(root, 'dist', '.build-stamp'), 'utf8'));
    const now = sourceState(join(root, 'src'));
    return now.files === built.files && now.newest <= built.newest;
  } catch {
    return false;
  }
}

// An image (or a package) ships dist/ without src/: nothing to be stale against.
const shippedWithoutSources = () =>
  !existsSync(join(root, 'src', 'cli', 'main.ts')) && existsSync(join(root, 'dist', 'main.js'));

if (process.env.FLOWOPS_FROM_SOURCE !== '1' && (shippedWithoutSources() || buildIsCurrent())) {
  await import('../dist/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
