// The ladder's commands (Center, switch YES/NO) go to the ladder the trader last focused or
// touched: the command bus runs the most recently registered handler, so a ladder claims the
// commands again when it gets focus or a pointer (Alt+2 focuses the main ladder's rows).
import { useCallback, useEffect, useRef } from 'react';
import type { OrderOrigin } from '../../../src-shared/ipc/contract';
import { originOf, registerCommand } from '../../lib/commands';

export interface LadderCommands {
  center: () => void;
  toggleView: () => void;
  /** join the inside on a view side and improve it by one row, never crossing; `origin`: the gesture that asked */
  improve: (side: 'bid' | 'ask', origin: OrderOrigin) => void;
  /** cancel my orders on a view side in this market */
  cancelSide: (side: 'bid' | 'ask', origin: OrderOrigin) => void;
}

/** Registers this ladder's handlers now and returns `claim`, which makes them the ones that run. */
export function useLadderCommands(handlers: LadderCommands): () => void {
  const latest = useRef(handlers);
  latest.current = handlers;
  const offs = useRef<(() => void)[]>([]);
  const release = useCallback(() => {
    for (const off of offs.current) off();
    offs.current = [];
  }, []);
  const claim = useCallback(() => {
    release();
    offs.current = [
      registerCommand('ladder.center', () => latest.current.center()),
      registerCommand('ladder.toggleView', () => latest.current.toggleView()),
      registerCommand('ladder.improveBid', (via) => latest.current.improve('bid', originOf(via))),
      registerCommand('ladder.improveAsk', (via) => latest.current.improve('ask', originOf(via))),
      registerCommand('ladder.cancelBids', (via) => latest.current.cancelSide('bid', originOf(via))),
      registerCommand('ladder.cancelAsks', (via) => latest.current.cancelSide('ask', originOf(via))),
    ];
  }, [release]);
  useEffect(() => {
    claim();
    return release;
  }, [claim, release]);
  return claim;
}
