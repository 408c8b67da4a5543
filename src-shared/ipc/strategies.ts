// Strategies over IPC: what main's door parses before a strategy starts live, stops, or is
// backtested over a recording, and the views it answers with. The code is the strategy's own
// text; main runs it only inside its sandbox (src-main/strategies/sandbox.ts).
import { z } from 'zod';
import { RecordingId } from './recordings';

const Code = z.string().min(1).max(200_000);
const Params = z.record(z.string().max(60), z.union([z.string().max(200), z.number().finite(), z.boolean()]));

/**
 * A strategy is bound to the profile it starts on; when the trader activates another profile it
 * stops, and its orders are canceled (`cancel`, the default) or left resting (`leave`).
 */
export const OnProfileSwitch = z.enum(['cancel', 'leave']);
export const StartStrategyInput = z.object({ name: z.string().trim().min(1).max(60), code: Code, params: Params, onProfileSwitch: OnProfileSwitch.optional() }).strict();
export const StrategyRef = z.object({ id: z.string().regex(/^st-\d{1,9}$/) }).strict();
export const BacktestInput = z.object({ code: Code, params: Params, recordingId: RecordingId }).strict();

export interface StrategyRunView {
  id: string;
  name: string;
  status: 'running' | 'stopped' | 'faulted';
  fault: string | null;
  log: string[];
  orders: { id: string; ticker: string; side: string; price: string; count: string; filled: string; status: string; reason: string }[];
  fills: number;
  /** YES contracts per market */
  positions: Record<string, string>;
  fees: string;
}

export interface StrategiesView {
  examples: { name: string; code: string }[];
  running: StrategyRunView[];
}

export interface BacktestView {
  pnl: string;
  maxDrawdown: string;
  winRate: number | null;
  wins: number;
  losses: number;
  fees: string;
  timeInMarketPct: number;
  events: number;
  eventsPerSec: number;
  fault: string | null;
  orders: number;
  /** the fills (at most 5,000), YES prices and counts as decimal strings */
  fills: { t: number; ticker: string; side: string; price: string; count: string; maker: boolean; fee: string }[];
  curve: { t: number; pnl: string }[];
  log: string[];
  csv: string;
}
