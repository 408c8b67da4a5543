// The renderer's only door to main: TerminalApi from the Electron preload (`window.terminal`),
// or, in a browser, the socket RPC client (socket-api.ts) to the web host (web-host.ts).
// Only types are imported from src-shared/ipc so that zod stays out of the renderer bundle.
import type { StreamName, StreamPayloads, TerminalApi } from '../../src-shared/ipc/contract';
import type { BridgeControl, BridgedApi, BridgeStatus } from './bridge-types';
import { createSocketApi } from './socket-api';
import { ipcUrl, takeUrlToken, webHostProtocols } from './web-host';

export { TerminalCallError, type BridgeControl, type BridgedApi, type BridgePhase, type BridgeStatus } from './bridge-types';

declare global {
  interface Window {
    terminal?: TerminalApi;
  }
}

/** The preload's API has no socket of its own to watch: it is always open. */
function preloadBridge(api: TerminalApi): BridgedApi {
  const status: BridgeStatus = { phase: 'open', attempt: 0, retryAt: null, detail: 'Electron preload', reconnects: 0 };
  const bridge: BridgeControl = {
    status: () => status,
    onStatus: () => () => {},
    retryNow: () => {},
    close: () => {},
  };
  return Object.assign(Object.create(null) as object, api, { on: api.on.bind(api), bridge }) as BridgedApi;
}

let instance: BridgedApi | null = null;

export function getTerminalApi(): BridgedApi {
  if (instance) return instance;
  if (window.terminal) {
    instance = preloadBridge(window.terminal);
    return instance;
  }
  const token = takeUrlToken(window.location, window.history, window.sessionStorage);
  instance = createSocketApi({
    url: ipcUrl(window.location),
    protocols: token ? webHostProtocols(token) : [],
    ...(token
      ? {}
      : {
          createSocket: () => {
            throw new Error('this tab holds no launch token: open the URL with ?token= that the terminal host printed in its console');
          },
        }),
  });
  return instance;
}

/** Reads a stream payload type by name (for listeners declared apart from `on`). */
export type Payload<S extends StreamName> = StreamPayloads[S];
