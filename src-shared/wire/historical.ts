// Historical archives. The resources are the live ones (markets, trades, fills, orders,
// positions, candlesticks); only the cutoff record is new here.
import { z } from 'zod';
import { UnixTs } from './common';

/**
 * Data older than each cutoff has left the live endpoints for that surface. The SDK sends these
 * as RFC 3339 strings; read as Unix seconds. `market_positions_last_updated_ts` may be absent.
 */
export const HistoricalCutoff = z
  .object({
    market_settled_ts: UnixTs,
    trades_created_ts: UnixTs,
    orders_updated_ts: UnixTs,
    market_positions_last_updated_ts: UnixTs.optional(),
  })
  .loose();
export type HistoricalCutoff = z.output<typeof HistoricalCutoff>;
