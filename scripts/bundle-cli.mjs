// Bundles the CLI (src/cli/main.ts and every module it can load) into dist/ with esbuild: one
// chunk per dynamically imported part, so a command loads a few files instead of the ~600 modules
// that tsc's output had `flowops up` load (half a second of module loading on these machines), and
// the JavaScript is what bin/flowops.js runs. esbuild comes with tsx, a dependency.
//
// Packages that find files next to their own code at run time stay outside the bundle: the native
// better-sqlite3, BullMQ (its Lua scripts), pino and pino-pretty (worker transports); so do those
// that gain nothing from it. Everything else, zod, yaml, jose and client-node's KubeConfig among
// them, is bundled and tree-shaken.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLED = new Set([
  '@kubernetes/client-node',
  'commander',
  'fast-json-patch',
  'jose',
  'lru-cache',
  'yaml',
  'zod',
]);
const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = Object.keys(dependencies).filter((d) => !BUNDLED.has(d));

/**
 * zod re-exports its 40-odd message locales as `z.locales`, so none can be tree-shaken: 0.3 MB of
 * the 0.75 MB every validating command compiles. FlowOps never switches zod's locale (its messages
 * are its own), so the bundle's `z.locales` holds English only, the locale zod defaults to.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)$/.test(args.resolveDir)
        ? { path: 'zod-locales', namespace: 'zod-english-only' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: `export { default as en } from ${JSON.stringify(join(root, 'node_modules', 'zod', 'v4', 'locales', 'en.js'))};`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

const outdir = join(root, 'dist');
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  // up-controllers: the thread `flowops up` runs its controllers on (src/cli/up/worker-entry.ts finds it here).
  entryPoints: {
    main: join(root, 'src', 'cli', 'main.ts'),
    'up-controllers': join(root, 'src', 'cli', 'up', 'worker.ts'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  sourcemap: true,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  metafile: true,
  plugins: [zodEnglishOnly],
  // CommonJS code inside the bundle (yaml, client-node's dependencies) calls require().
  banner: {
    js: "import { createRequire as flowopsCreateRequire } from 'node:module'; const require = flowopsCreateRequire(import.meta.url);",
  },
});

// With splitting, a dynamic import() of a bundled CommonJS package (yaml, client-node's
// dependencies) gets only a default export, where node would give its named ones: refuse it here
// rather than as "is not a function" at run time. Import such a package statically instead.
const dynamicCjs = Object.entries(result.metafile.inputs).flatMap(([file, input]) =>
  input.imports
    .filter(
      (i) =>
        i.kind === 'dynamic-import' &&
        !i.external &&
        i.path.includes('node_modules/') &&
        result.metafile.inputs[i.path]?.format === 'cjs',
    )
    .map((i) => `${file} imports ${i.path}`),
);
if (dynamicCjs.length) {
  process.stderr.write(
    `flowops build: dynamic import of a CommonJS package, which the bundle cannot give named exports:\n  ${dynamicCjs.join('\n  ')}\n`,
  );
  process.exit(1);
}
