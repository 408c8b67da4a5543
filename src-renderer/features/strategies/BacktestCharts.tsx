// A backtest's P&L curve and its fills (bought and sold prices over time), on lightweight-charts.
import { useMemo } from 'react';
import type { BacktestView } from '../../../src-shared/ipc/contract';
import { LineChart, type LineDef } from '../../ui/charts';

export function BacktestCharts({ report, theme }: { report: BacktestView; theme: string }) {
  const pnl = useMemo<LineDef[]>(() => [{ id: 'pnl', label: 'P&L ($)', points: report.curve.map((c) => ({ time: Math.floor(c.t / 1000), value: Number(c.pnl) })) }], [report]);
  const fills = useMemo<LineDef[]>(
    () =>
      (['bid', 'ask'] as const).map((side) => ({
        id: side,
        label: side === 'bid' ? 'bought at' : 'sold at',
        points: report.fills.filter((f) => f.side === side).map((f) => ({ time: Math.floor(f.t / 1000), value: Number(f.price) })),
      })),
    [report],
  );
  return (
    <>
      <div style={{ height: 160 }}>
        <LineChart lines={pnl} theme={theme} label="Backtest P&L" decimals={2} />
      </div>
      <div style={{ height: 160 }}>
        <LineChart lines={fills} theme={theme} label="Backtest fills" decimals={4} />
      </div>
    </>
  );
}
