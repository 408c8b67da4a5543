// Re-renders while live stores change: once per animation frame in which they changed (what a
// list showing live prices needs to stay true), or at most once per interval for slower views.
import { useEffect, useRef, useState } from 'react';
import type { StoreApi } from 'zustand';
import { marketStore } from '../stores/market';

/** `intervalMs` 'frame': the next animation frame after a change; a number: a timer after the first change. */
export function useStoreTick(stores: readonly Pick<StoreApi<unknown>, 'subscribe'>[], intervalMs: number | 'frame' = 1000): number {
  const [tick, setTick] = useState(0);
  // the store list is fixed per call site
  const storesRef = useRef(stores);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let frame: number | null = null;
    const bump = () => {
      timer = null;
      frame = null;
      setTick((t) => t + 1);
    };
    const fire = () => {
      if (timer !== null || frame !== null) return;
      if (intervalMs === 'frame') frame = requestAnimationFrame(bump);
      else timer = setTimeout(bump, intervalMs);
    };
    const offs = storesRef.current.map((s) => s.subscribe(fire));
    return () => {
      offs.forEach((off) => off());
      if (timer !== null) clearTimeout(timer);
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [intervalMs, storesRef]);
  return tick;
}

export function useLiveTick(intervalMs: number | 'frame' = 1000): number {
  return useStoreTick(LIVE, intervalMs);
}
const LIVE = [marketStore];
