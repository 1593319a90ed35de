import type { Actor } from '../../src/modules/audit/service.js';

/** A staff member acting through a service directly (as the console or the CLI would), for the audit trail. */
export const staffActor = (name = 'staff@test'): Actor => ({ staffId: null, name, address: null });
