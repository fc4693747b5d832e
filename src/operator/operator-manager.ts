import type { KubeClient, KubeObject } from '../kube/index.js';
import { Informer } from '../kube/informer.js';
import type { Logger } from '../log/index.js';
import { DeclarativeController } from './controller.js';
import { OperatorStatusWriter } from './status-writer.js';
import { controllersOf, OPERATOR_API_VERSION, OPERATOR_KIND, viewGroup } from './types.js';
import type { ViewBackend } from './view-backend.js';

export interface OperatorManagerDeps {
  kube: KubeClient;
  views: ViewBackend;
  log: Logger;
  /**
   * Set with --default-service-account: an Operator must name the ServiceAccount it acts as
   * (there is no namespace of its own to find a default in), or none of its controllers runs.
   */
  requireServiceAccount?: boolean;
}

interface Running {
  obj: KubeObject;
  specJson: string;
  controllers: DeclarativeController[];
  status: OperatorStatusWriter;
  /** Starts and stops of one Operator run one after another. */
  chain: Promise<void>;
}

/** The field manager of one controller's target writes, as the brief and the original's naming suggest. */
export const controllerFieldManager = (operator: string, controller: string): string =>
  `dcontroller-${operator}-${controller}`.slice(0, 128);

/**
 * Watches Operators and runs their controllers. Editing an Operator's spec restarts its
 * controllers with the new spec; deleting it stops them and drops its views (spec §1.1).
 */
export class OperatorManager {
  private readonly running = new Map<string, Running>();
  private informer: Informer | undefined;

  constructor(private readonly deps: OperatorManagerDeps) {}

  start(): void {
    this.informer = new Informer(
      this.deps.kube,
      { apiVersion: OPERATOR_API_VERSION, kind: OPERATOR_KIND, log: this.deps.log },
      {
        add: (o) => this.upsert(o),
        update: (o) => this.upsert(o),
        delete: (o) => this.remove(o, true),
      },
    );
    this.informer.start();
  }

  async stop(): Promise<void> {
    await this.informer?.stop();
    await Promise.all([...this.running.values()].map((r) => this.enqueue(r, () => this.stopControllers(r))));
    this.running.clear();
  }

  /** The controllers of an Operator (tests wait on their writes). */
  controllers(name: string): readonly DeclarativeController[] {
    return this.running.get(name)?.controllers ?? [];
  }

  private upsert(obj: KubeObject): void {
    const name = obj.metadata.name!;
    const specJson = JSON.stringify(obj.spec ?? null);
    let r = this.running.get(name);
    if (r && r.specJson === specJson) {
      r.obj = obj;
      return;
    }
    if (!r) {
      const entry: Running = {
        obj,
        specJson,
        controllers: [],
        chain: Promise.resolve(),
        status: undefined as unknown as OperatorStatusWriter,
      };
      entry.status = new OperatorStatusWriter(this.deps.kube, name, this.deps.log, () =>
        entry.controllers.map((c) => c.health.status(entry.obj.metadata.generation)),
      );
      this.running.set(name, entry);
      r = entry;
    }
    const entry = r;
    entry.obj = obj;
    entry.specJson = specJson;
    void this.enqueue(entry, async () => {
      await this.stopControllers(entry);
      if (this.running.get(name) !== entry) return;
      const log = this.deps.log.child({ operator: name });
      const identity = this.identityOf(obj);
      entry.controllers = controllersOf(obj.spec).map(
        (spec) =>
          new DeclarativeController(spec, {
            kube: identity.kube,
            ...(identity.refused ? { refused: identity.refused } : {}),
            views: this.deps.views,
            log,
            operator: name,
            fieldManager: controllerFieldManager(name, typeof spec.name === 'string' ? spec.name : ''),
            onChange: () => entry.status.schedule(),
          }),
      );
      await Promise.all(entry.controllers.map((c) => c.start()));
      entry.status.schedule();
    });
  }

  /**
   * Sources and targets are read and written as spec.serviceAccountName in
   * spec.serviceAccountNamespace (impersonation: RBAC decides as for that ServiceAccount); views
   * and the Operator's own status stay FlowOps' (they are its bookkeeping, not the cluster's).
   */
  private identityOf(obj: KubeObject): { kube: KubeClient; refused?: string } {
    const spec = (obj.spec ?? {}) as { serviceAccountName?: unknown; serviceAccountNamespace?: unknown };
    const name =
      typeof spec.serviceAccountName === 'string' && spec.serviceAccountName ? spec.serviceAccountName : undefined;
    const namespace =
      typeof spec.serviceAccountNamespace === 'string' && spec.serviceAccountNamespace
        ? spec.serviceAccountNamespace
        : undefined;
    if (name && namespace) return { kube: this.deps.kube.asServiceAccount(namespace, name) };
    if (name || namespace)
      return {
        kube: this.deps.kube,
        refused:
          "spec.serviceAccountName and spec.serviceAccountNamespace go together: an Operator is cluster-scoped, so its ServiceAccount's namespace must be named",
      };
    if (this.deps.requireServiceAccount)
      return {
        kube: this.deps.kube,
        refused:
          'spec.serviceAccountName and spec.serviceAccountNamespace are required: FlowOps runs with --default-service-account, so nothing acts with its own rights',
      };
    return { kube: this.deps.kube };
  }

  private remove(obj: KubeObject, dropViews: boolean): void {
    const name = obj.metadata.name!;
    const entry = this.running.get(name);
    if (!entry) return;
    this.running.delete(name);
    entry.status.stop();
    void this.enqueue(entry, async () => {
      await this.stopControllers(entry);
      if (dropViews && !this.running.has(name)) {
        await this.deps.views
          .dropGroup?.(viewGroup(name))
          .catch((err: unknown) =>
            this.deps.log.warn({ operator: name, err: (err as Error).message }, 'could not drop views'),
          );
      }
    });
  }

  private async stopControllers(r: Running): Promise<void> {
    const old = r.controllers;
    r.controllers = [];
    await Promise.all(old.map((c) => c.stop()));
  }

  private enqueue(r: Running, job: () => Promise<void>): Promise<void> {
    r.chain = r.chain.then(job).catch((err: unknown) => this.deps.log.error({ err }, 'operator job failed'));
    return r.chain;
  }
}
