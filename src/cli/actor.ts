import os from 'node:os';
import type { Actor } from '../modules/audit/service.js';

/** The operating-system user running the CLI, as the audit trail records it: `cli:<user>`. */
export function cliActor(): Actor {
  let user: string | undefined;
  try {
    user = os.userInfo().username;
  } catch {
    // No passwd entry for this uid (some containers): fall back to what the shell says.
  }
  return { staffId: null, name: `cli:${user || process.env.USER || process.env.USERNAME || 'unknown'}`, address: null };
}
