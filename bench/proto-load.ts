// What loading the vendored k8s.io/api protobuf descriptors costs: parsing the .proto text with protobufjs versus
// Root.fromJSON of the descriptor gen:proto precompiles (what src/apiserver/protobuf/descriptors.ts does, on the
// first protobuf request). Each way runs in a fresh process, so neither warms the other. Prints figures only.
//   npx tsx bench/proto-load.ts [--runs 5]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DESCRIPTOR_FILE, VENDOR_DIR } from '../src/apiserver/protobuf/vendor-files.js';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;

const child = (mode: 'proto' | 'json'): number => {
  const script = `
    const protobuf = require('protobufjs');
    const { readFileSync } = require('node:fs');
    const { join } = require('node:path');
    const dir = ${JSON.stringify(VENDOR_DIR)};
    const t = process.hrtime.bigint();
    let root;
    if (${JSON.stringify(mode)} === 'proto') {
      root = new protobuf.Root();
      root.resolvePath = (_o, f) => (f.startsWith('/') ? f : join(dir, f));
      root.loadSync(readFileSync(join(dir, 'FILES'), 'utf8').trim().split('\\n').map((f) => join(dir, f)), { keepCase: true });
    } else {
      root = protobuf.Root.fromJSON(JSON.parse(readFileSync(join(dir, ${JSON.stringify(DESCRIPTOR_FILE)}), 'utf8')));
    }
    root.lookupType('k8s.io.api.core.v1.Pod');
    process.stdout.write(String(Number(process.hrtime.bigint() - t) / 1e6));`;
  return Number(
    execFileSync(process.execPath, ['-e', script], { cwd: join(import.meta.dirname, '..'), encoding: 'utf8' }),
  );
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const proto = median(Array.from({ length: runs }, () => child('proto')));
const json = median(Array.from({ length: runs }, () => child('json')));
console.log(`protobuf descriptors, median of ${runs} fresh processes:`);
console.log(`  parse the vendored .proto files: ${proto.toFixed(0)} ms`);
console.log(
  `  Root.fromJSON of ${DESCRIPTOR_FILE} (what the server does): ${json.toFixed(0)} ms (${(json / proto).toFixed(2)}× the parse)`,
);
