// Re-renders at most once per interval while live stores change: enough for lists that show
// live prices, without rendering on every frame.
import { useEffect, useRef, useState } from 'react';
import type { StoreApi } from 'zustand';
import { marketStore } from '../stores/market';

export function useStoreTick(stores: readonly Pick<StoreApi<unknown>, 'subscribe'>[], intervalMs = 1000): number {
  const [tick, setTick] = useState(0);
  // the store list is fixed per call site
  const storesRef = useRef(stores);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const fire = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        setTick((t) => t + 1);
      }, intervalMs);
    };
    const offs = storesRef.current.map((s) => s.subscribe(fire));
    return () => {
      offs.forEach((off) => off());
      if (timer) clearTimeout(timer);
    };
  }, [intervalMs, storesRef]);
  return tick;
}

export function useLiveTick(intervalMs = 1000): number {
  return useStoreTick(LIVE, intervalMs);
}
const LIVE = [marketStore];
