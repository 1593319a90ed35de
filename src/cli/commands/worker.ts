import type { Command } from 'commander';
import type { BackgroundTask } from '../../server.js';
import type { Runtime } from '../runtime.js';

/** Background tasks the serve process runs inline (WORKER=inline). */
export function backgroundTasks(_rt: Runtime): BackgroundTask[] {
  return [];
}

export function register(_program: Command): void {}
