// The renderer's only door to main: the Electron preload's call channel (`window.terminal`), or,
// in a browser, the socket RPC client (socket-api.ts) to the web host (web-host.ts); either way the
// contract's methods are derived over one call (client-proxy.ts).
// Only types are imported from src-shared/ipc so that zod stays out of the renderer bundle.
import type { PreloadApi, StreamName, StreamPayloads } from '../../src-shared/ipc/contract';
import { TerminalCallError, type BridgeControl, type BridgedApi, type BridgeStatus } from './bridge-types';
import { proxyClient } from './client-proxy';
import { createSocketApi } from './socket-api';
import { ipcUrl, takeUrlToken, webHostProtocols } from './web-host';

export { TerminalCallError, type BridgeControl, type BridgedApi, type BridgePhase, type BridgeStatus } from './bridge-types';

declare global {
  interface Window {
    terminal?: PreloadApi;
  }
}

/** The preload's channel has no socket of its own to watch: it is always open. */
function preloadBridge(api: PreloadApi): BridgedApi {
  const status: BridgeStatus = { phase: 'open', attempt: 0, retryAt: null, detail: 'Electron preload', reconnects: 0 };
  const bridge: BridgeControl = {
    status: () => status,
    onStatus: () => () => {},
    retryNow: () => {},
    close: () => {},
  };
  const call = async (method: string, args: unknown[]): Promise<unknown> => {
    const r = await api.call(method, args);
    if (r.ok) return r.value;
    throw new TerminalCallError(r.error, method);
  };
  return proxyClient<BridgedApi>({ on: api.on.bind(api), bridge }, call);
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
