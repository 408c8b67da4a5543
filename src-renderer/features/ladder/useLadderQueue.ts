// My resting orders' places in the queue on this ladder's market, for the Mine cells' tags: the
// same source as the Orders panel's Queue column (one query for every panel).
import { useEffect, useMemo, useRef, useState } from 'react';
import { restingOrdersIn, usePrivate } from '../../stores/private';
import { useQueuePositions } from '../../hooks/useQueuePositions';

/** The queue positions by order id (read by the paint) and a version that moves when they change (so it repaints). */
export function useLadderQueue(ticker: string | null) {
  const [queueVersion, setQueueVersion] = useState(0);
  const queueRef = useRef<Map<string, string>>(new Map());
  const resting = usePrivate((s) => (ticker ? restingOrdersIn(s, ticker).length : 0));
  const queueMarkets = useMemo(() => (ticker && resting > 0 ? [ticker] : []), [ticker, resting]);
  const queue = useQueuePositions(queueMarkets);
  useEffect(() => {
    queueRef.current = new Map(queue);
    setQueueVersion((v) => v + 1);
  }, [queue]);
  return { queueRef, queueVersion };
}
