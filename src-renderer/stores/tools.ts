// What main holds for the trader's tools (the 'alerts' and 'local' streams): alerts with their
// history, and local conditional orders. Main evaluates both; the renderer shows and asks.
import { create } from 'zustand';
import type { AlertsView, LocalOrdersView } from '../../src-shared/ipc/contract';

export const useTools = create<{ alerts: AlertsView | null; local: LocalOrdersView | null }>()(() => ({ alerts: null, local: null }));

export const setAlertsView = (alerts: AlertsView): void => useTools.setState({ alerts });
export const setLocalView = (local: LocalOrdersView): void => useTools.setState({ local });

/** Local orders still able to fire or waiting on the trader, for the ladder's markers and the tab's count. */
export const isLiveLocal = (state: string): boolean => ['armed', 'waiting_entry', 'held', 'kill_held', 'missed', 'triggered'].includes(state);
