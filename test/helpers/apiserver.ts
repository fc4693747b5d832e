import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../src/apiserver/index.js';
import { writeKubeconfig } from '../../src/kube/kubeconfig.js';

export interface TestServer {
  server: ApiServer;
  dir: string;
  kubeconfig: string;
  stop(): Promise<void>;
}

/** An embedded API server on a free loopback port with its own data dir and kubeconfig. */
export async function startTestServer(opts: Partial<ApiServerOptions> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'flowops-test-'));
  const server = await startApiServer({ port: 0, dataDir: join(dir, 'data'), ...opts });
  const kubeconfig = join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, server.url);
  return {
    server,
    dir,
    kubeconfig,
    stop: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
