// The closed list of what the simulator's controllers throw, each with a code. A controller's
// control loop logs it and retries the object later, as kube-controller-manager's do.

export type SimulatorErrorCode =
  /** Every address of the simulated pod CIDR is taken. */
  | 'PodCidrExhausted'
  /** A pod the controller would create exists and is owned by another controller. */
  | 'NameTaken';

export class SimulatorError extends Error {
  override readonly name = 'SimulatorError';

  constructor(
    readonly code: SimulatorErrorCode,
    message: string,
  ) {
    super(message);
  }
}
