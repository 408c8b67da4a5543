// The panels the layout can hold, by id (the id is also the dockview component name).
import type { ReactNode } from 'react';
import { PANEL_IDS, PANEL_TITLES, type PanelId } from '../lib/keymap';
import { AccountPanel } from '../features/account/AccountPanel';
import { ChartPanel } from '../features/chart/ChartPanel';
import { FcmPanel } from '../features/fcm/FcmPanel';
import { HistoryPanel } from '../features/history/HistoryPanel';
import { LadderPanel } from '../features/ladder/LadderPanel';
import { LiveDataPanel } from '../features/livedata/LiveDataPanel';
import { MarketsPanel } from '../features/markets/MarketsPanel';
import { OrdersPanel } from '../features/orders/OrdersPanel';
import { PositionsPanel } from '../features/positions/PositionsPanel';
import { RfqPanel } from '../features/rfq/RfqPanel';
import { RiskPanel } from '../features/risk/RiskPanel';
import { TapePanel } from '../features/tape/TapePanel';
import { TicketPanel } from '../features/ticket/TicketPanel';
import { AlertsPanel } from '../features/alerts/AlertsPanel';
import { EventLadders } from '../features/ladder/EventLadders';
import { RecordingsPanel } from '../features/recordings/RecordingsPanel';
import { StrategiesPanel } from '../features/strategies/StrategiesPanel';
import { FixPanel } from '../features/fix/FixPanel';
import { HeatmapPanel } from '../features/heatmap/HeatmapPanel';

export const PANELS: Record<PanelId, { title: string; render: () => ReactNode; fcmOnly?: boolean }> = {
  markets: { title: PANEL_TITLES.markets, render: () => <MarketsPanel /> },
  ladder: { title: PANEL_TITLES.ladder, render: () => <LadderPanel /> },
  ticket: { title: PANEL_TITLES.ticket, render: () => <TicketPanel /> },
  chart: { title: PANEL_TITLES.chart, render: () => <ChartPanel /> },
  orders: { title: PANEL_TITLES.orders, render: () => <OrdersPanel /> },
  positions: { title: PANEL_TITLES.positions, render: () => <PositionsPanel /> },
  rfq: { title: PANEL_TITLES.rfq, render: () => <RfqPanel /> },
  account: { title: PANEL_TITLES.account, render: () => <AccountPanel /> },
  history: { title: PANEL_TITLES.history, render: () => <HistoryPanel /> },
  livedata: { title: PANEL_TITLES.livedata, render: () => <LiveDataPanel /> },
  fcm: { title: PANEL_TITLES.fcm, render: () => <FcmPanel />, fcmOnly: true },
  risk: { title: PANEL_TITLES.risk, render: () => <RiskPanel /> },
  tape: { title: PANEL_TITLES.tape, render: () => <TapePanel /> },
  alerts: { title: PANEL_TITLES.alerts, render: () => <AlertsPanel /> },
  eventladders: { title: PANEL_TITLES.eventladders, render: () => <EventLadders /> },
  recordings: { title: PANEL_TITLES.recordings, render: () => <RecordingsPanel /> },
  strategies: { title: PANEL_TITLES.strategies, render: () => <StrategiesPanel /> },
  fix: { title: PANEL_TITLES.fix, render: () => <FixPanel /> },
  heatmap: { title: PANEL_TITLES.heatmap, render: () => <HeatmapPanel /> },
};

/** Panels that follow a link group (or a pin): a chip in their corner says which. */
export const LINKABLE: ReadonlySet<PanelId> = new Set<PanelId>(['markets', 'ladder', 'chart', 'tape', 'ticket', 'eventladders', 'heatmap']);

export const isPanelId = (v: unknown): v is PanelId => typeof v === 'string' && (PANEL_IDS as readonly string[]).includes(v);
