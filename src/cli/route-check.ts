import { logRouteStartCheck, routeStartCheck } from '../modules/package-routes/start-check.js';
import { CliError, type Runtime } from './runtime.js';

/**
 * Before `serve` or `worker` starts: with NODE_ENV=production and not LIVE_SANDBOX, an active data
 * package without a usable route refuses the start in one line naming the packages; otherwise the
 * start-up log says which routes are skipped and which packages' live orders go to the sandbox.
 */
export async function checkRoutesBeforeStart(rt: Runtime): Promise<void> {
  const check = await routeStartCheck(rt.ctx.packageRoutes);
  if (check.refusal !== null) {
    await rt.close();
    throw new CliError(check.refusal);
  }
  logRouteStartCheck(check, rt.logger);
}
