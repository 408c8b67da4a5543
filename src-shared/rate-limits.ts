// The exchange's rate limits, one definition for both sides: the exchange enforces them
// (src-exchange/http/ratelimit.ts) and the terminal's client waits for its tokens under them
// (src-main/api/limiter.ts). Tiers and costs per the protocol notes (docs/spec/protocol-notes.md).

export type UsageTier = 'basic' | 'advanced' | 'expert' | 'premier' | 'paragon' | 'prime' | 'prestige';

/** Tokens per second, read / write. */
export const TIER_RATES: Record<UsageTier, { read: number; write: number }> = {
  basic: { read: 200, write: 100 },
  advanced: { read: 300, write: 300 },
  expert: { read: 600, write: 600 },
  premier: { read: 1200, write: 1200 },
  paragon: { read: 2400, write: 2400 },
  prime: { read: 4800, write: 4800 },
  prestige: { read: 12000, write: 9600 },
};

/** Tokens a request costs unless its endpoint lists another cost. */
export const DEFAULT_COST = 10;

/** What DELETE /portfolio/orders/{order_id} (cancelOrder) costs. */
export const CANCEL_ORDER_COST = 2;
