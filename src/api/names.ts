// The API group, versions, kinds and plurals of FlowOps' own resources, in a module with no
// dependencies: the CLI's quick commands name them without loading the zod schemas.
export const FLOW_GROUP = 'flowops.io';
export const FLOW_VERSION = 'v1';
export const FLOW_API_VERSION = `${FLOW_GROUP}/${FLOW_VERSION}`;
export const FLOW_KIND = 'Flow';
export const FLOW_PLURAL = 'flows';

export const FLOWSOURCE_KIND = 'FlowSource';
export const FLOWSOURCE_PLURAL = 'flowsources';
export const FLOWSOURCE_API_VERSION = FLOW_API_VERSION;

/** One per watched object: its last runs (src/engine/run-history.ts writes them). */
export const RUNHISTORY_KIND = 'RunHistory';
export const RUNHISTORY_PLURAL = 'runhistories';

/** Where notifications go (src/notify/): a webhook, chat, Alertmanager, Grafana or a forge's commit status. */
export const PROVIDER_KIND = 'Provider';
export const PROVIDER_PLURAL = 'providers';
/** Which events go to a Provider, filtered, grouped per commit and de-duplicated. */
export const ALERT_KIND = 'Alert';
export const ALERT_PLURAL = 'alerts';
