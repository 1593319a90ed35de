import { Type, type Static } from 'typebox';
import { Ghs, Success, Timestamp } from '../../lib/wire.js';

/** Spec 2.3 */
export const WalletBalance = Type.Object({
  userProfileId: Type.String(),
  availableBalance: Ghs(),
  heldBalance: Ghs(),
  totalBalance: Ghs(),
  currency: Type.Literal('GHS'),
  lastUpdated: Timestamp(),
});
export type WalletBalance = Static<typeof WalletBalance>;
export const WalletBalanceResponse = Success(WalletBalance);
