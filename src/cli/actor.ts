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

/**
 * An action that needs a named admin (wallet adjustments: four eyes): the CLI acts as the active
 * admin account `email` (`--as`), recorded as `<e-mail> (cli:<user>)`.
 */
export async function cliAdmin(
  email: string | undefined,
  find: (email: string) => Promise<{ id: string; email: string; role: string; status: string } | undefined>,
): Promise<Actor | string> {
  if (!email) return 'name the admin account you act as: --as <e-mail>';
  const account = await find(email.trim().toLowerCase());
  if (!account || account.status !== 'active') return `no active staff account ${email}`;
  if (account.role !== 'admin') return `${account.email} is ${account.role}; wallet adjustments need an admin`;
  return { staffId: account.id, name: `${account.email} (${cliActor().name})`, address: null };
}
