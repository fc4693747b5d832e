// `flowops up`'s controller side and the thread it runs on (see controllers-thread.ts).
export { ControllersThread } from './controllers-thread.js';
export { InProcessControllers } from './in-process.js';
export { layoutOf, type ControllerSide, type ControllersLayout } from './controller-side.js';
export { readinessRoute } from './readiness-route.js';
export { ControllersThreadError, type ControllersThreadErrorCode } from './errors.js';
export type { ControllersConfig } from './protocol.js';
