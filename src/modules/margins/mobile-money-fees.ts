import type { TopUpRepository } from '../top-ups/repository.js';
import { dayOf } from './repository.js';
import type { CostSource } from './service.js';

/**
 * Paystack's fees on live Mobile Money top-ups (docs/mobile-money.md, "Crediting": the partner is
 * credited the amount asked, the platform bears the fee), counted on the day the top-up was credited.
 */
export function mobileMoneyFees(topUps: Pick<TopUpRepository, 'liveGatewayFees'>): CostSource {
  return {
    name: 'Mobile Money fees',
    async costs(from, to) {
      const rows = await topUps.liveGatewayFees(from, to);
      return rows.map((r) => ({ day: dayOf(r.decided_at), profileId: r.profile_id, cost: r.gateway_fee }));
    },
  };
}
