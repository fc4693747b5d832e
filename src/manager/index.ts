// A process's parts, started in order, stopped in reverse, ready when all are (see manager.ts).
export { Manager } from './manager.js';
export { stopOnly, type Runnable } from './runnable.js';
