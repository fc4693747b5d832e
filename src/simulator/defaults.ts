/** How long a simulated pod takes to become Running and Ready (in its own module so `--help` can show it without loading the simulator). */
export const DEFAULT_POD_START_MS = 200;
