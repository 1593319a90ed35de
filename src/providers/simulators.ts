import { startDtoneSimulator } from './dtone/simulator.js';
import { startHubtelSimulator } from './hubtel/simulator.js';
import { startReloadlySimulator } from './reloadly/simulator.js';
import type { RunningSimulator, SimulatorOptions } from './simulator-kit.js';
import type { UpstreamName } from './types.js';

/** Each upstream's simulator (docs/live-delivery.md, "Simulators"): `cli simulate`, the demo and the tests start them. */
export const SIMULATORS: Record<UpstreamName, ((options: SimulatorOptions) => Promise<RunningSimulator>) | null> = {
  hubtel: (options) => startHubtelSimulator(options),
  reloadly: (options) => startReloadlySimulator(options),
  dtone: (options) => startDtoneSimulator(options),
};
