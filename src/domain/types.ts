/** Every wallet, order, top-up and result-checker transaction belongs to one mode (docs/api.md, "Live and test modes"). */
export type Mode = 'live' | 'test';
export const MODES: readonly Mode[] = ['live', 'test'];

/** Account roles: prices and permissions depend on them (docs/api.md, "Conventions"). */
export type Role = 'Agent' | 'SuperAgent' | 'Customer' | 'Staff';
export const ROLES: readonly Role[] = ['Agent', 'SuperAgent', 'Customer', 'Staff'];

/** The service's time source, unix ms: given to every service by the composition root (tests set it). */
export type Clock = () => number;
