// The risk view main pushes (the 'risk' stream): this profile's limits, the kill switch and
// today's P&L. Main enforces; the renderer only shows and asks.
import { create } from 'zustand';
import type { RiskView } from '../../src-shared/ipc/contract';

export const useRisk = create<{ view: RiskView | null }>()(() => ({ view: null }));

export const setRiskView = (view: RiskView): void => useRisk.setState({ view });
