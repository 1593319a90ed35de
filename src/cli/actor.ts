import os from 'node:os';
import type { Command } from 'commander';
import type { StaffRole } from '../db/schema.js';
import { DomainError } from '../domain/errors.js';
import type { Actor } from '../modules/audit/service.js';
import { SignInFailures } from '../modules/console/sign-in-failures.js';
import type { CliIo } from './io.js';
import { CliError, type Runtime } from './runtime.js';

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

/** The options of a CLI approval that proves who approves (docs/cli.md, "Four eyes from the CLI"). */
export interface ApproverOptions {
  /** The approver's staff e-mail. */
  approver?: string;
  /** The account's console password is on standard input (its first line). */
  passwordStdin?: boolean;
  /** A current code of the account's authenticator (two-factor sign-in on). */
  code?: string;
}

/** The approval options every such command takes. */
export function withApproverOptions(command: Command): Command {
  return command
    .option('--approver <email>', "approve as this staff account, proven by its console password (read from standard input: --password-stdin)")
    .option('--password-stdin', "read the approver's console password from standard input (its first line)")
    .option('--code <code>', "a current code of the approver's authenticator app (when its two-factor sign-in is on)");
}

/** Who approves, and with which staff role (null: the CLI's own user, nobody's second pair of eyes). */
export interface CliApprover {
  actor: Actor;
  role: StaffRole | null;
}

/**
 * The approver of a CLI approval: the CLI's own user (`cli:<user>`) unless --approver names a staff
 * account, whose console password (and current code, with two-factor sign-in on) must prove it; then
 * recorded as `<e-mail> (cli:<user>)`. A wrong proof is refused with one message whichever part was
 * wrong, and counted as a failed sign-in in the audit trail, as the console counts them.
 */
export async function cliApprover(rt: Runtime, io: CliIo, opts: ApproverOptions): Promise<CliApprover> {
  const cli = cliActor();
  if (opts.approver === undefined) {
    if (opts.passwordStdin || opts.code !== undefined) throw new CliError('--password-stdin and --code go with --approver <e-mail>');
    return { actor: cli, role: null };
  }
  if (!opts.passwordStdin) throw new CliError("--approver needs the account's console password on standard input: add --password-stdin");
  const password = (await io.readStdin()).split(/\r?\n/)[0] ?? '';
  if (password === '') throw new CliError('--password-stdin: no password on standard input');
  const email = opts.approver.trim().toLowerCase();
  try {
    const account = await rt.ctx.staff.proveHolder(email, { password, code: opts.code }, cli.name);
    return { actor: { staffId: account.id, name: `${account.email} (${cli.name})`, address: null }, role: account.role };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.refusal === 'unauthenticated') {
      const failures = new SignInFailures(rt.ctx.audit, rt.ctx.clock, (e) => rt.logger.error({ err: e }, 'a failed sign-in was not recorded'));
      await failures.failed(cli.name, email, error.message);
      await failures.close();
      throw new CliError(`refused: ${error.message} (with two-factor sign-in on, add --code <the code the app shows now>)`);
    }
    throw new CliError(`refused: ${error.message}`);
  }
}
