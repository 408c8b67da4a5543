// Where the terminal stands: main's connection to the exchange (the 'connection' stream) and
// this page's own link to main (the bridge).
import { create } from 'zustand';
import type { ConnectionView } from '../../src-shared/ipc/contract';
import type { BridgeStatus } from '../lib/bridge';

export interface ConnectionState {
  view: ConnectionView | null;
  bridge: BridgeStatus;
}

export const useConnection = create<ConnectionState>()(() => ({
  view: null,
  bridge: { phase: 'connecting', attempt: 0, retryAt: null, detail: 'connecting to the terminal host', reconnects: 0 },
}));
