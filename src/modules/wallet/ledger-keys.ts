/**
 * The idempotency key of every kind of ledger entry: one business event, one entry (the key is
 * unique in ledger_entries, so a second booking of the same event fails its unit of work). The
 * live paths and the seed import of history use these same keys.
 */
export const ledgerKeys = {
  opening: (walletId: string) => `opening:${walletId}`,
  topUp: (topUpId: string) => `topup:${topUpId}`,
  hold: (itemId: string, attempt: number) => `hold:${itemId}:${attempt}`,
  settle: (itemId: string, attempt: number) => `settle:${itemId}:${attempt}`,
  release: (itemId: string, attempt: number) => `release:${itemId}:${attempt}`,
  reversal: (orderId: string) => `reversal:${orderId}`,
  rcDebit: (transactionId: string) => `rc_debit:${transactionId}`,
  rcBulkDebit: (bulkId: string) => `rc_bulk_debit:${bulkId}`,
  rcRefund: (transactionId: string) => `rc_refund:${transactionId}`,
} as const;

/** The prefix of the bulk debits' keys, which `ledger verify` reads back to find the bulk purchase. */
export const RC_BULK_DEBIT_PREFIX = 'rc_bulk_debit:';
