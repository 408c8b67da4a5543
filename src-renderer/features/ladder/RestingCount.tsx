// The ladder foot's count of my resting orders in its market, painted straight from the private
// store as the update lands (the ack of an order is the count the trader watches): no React
// render of the foot, and the count is in the page before React renders the other panels the
// same update touches.
import { useLayoutEffect, useRef } from 'react';
import { privateStore, restingOrdersIn, type PrivateState } from '../../stores/private';

export function RestingCount({ ticker }: { ticker: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return undefined;
    let shown = '';
    const paint = (s: PrivateState) => {
      const text = String(restingOrdersIn(s, ticker).length);
      if (text === shown) return;
      shown = text;
      el.textContent = text;
    };
    paint(privateStore.getState());
    return privateStore.subscribe(paint);
  }, [ticker]);
  return <span data-resting ref={ref} />;
}
