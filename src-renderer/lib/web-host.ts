// How a browser tab finds and proves itself to the web host: the IPC socket's URL, and the launch
// token moved from the address into this tab's sessionStorage and offered as a subprotocol.

/**
 * The IPC socket URL of the web host serving this page: same host, `/ipc`. The launch token is
 * not in it: it is offered as a subprotocol (webHostProtocols).
 */
export function ipcUrl(loc: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}/ipc`;
}

/** the subprotocol the web host answers with, and the prefix of the one carrying the token */
export const HOST_PROTOCOL = 'terminal.v1';
export const TOKEN_PROTOCOL = 'terminal.token.';
const TOKEN_KEY = 'terminal.token';

/** The subprotocols this page's socket offers: the token rides in one, never in a URL or a cookie. */
export function webHostProtocols(token: string): string[] {
  return [HOST_PROTOCOL, `${TOKEN_PROTOCOL}${token}`];
}

/**
 * Moves ?token= from the address into sessionStorage (which only this origin, scheme + host +
 * port, can read; a cookie would reach every port of 127.0.0.1) and drops it from the address
 * and history. Returns the token this tab holds: a reload keeps it; a new tab needs the URL with
 * the token again.
 */
export function takeUrlToken(
  loc: Pick<Location, 'pathname' | 'search' | 'hash'>,
  history: Pick<History, 'replaceState' | 'state'>,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
): string | null {
  const params = new URLSearchParams(loc.search);
  const fromUrl = params.get('token');
  if (fromUrl !== null) {
    if (/^[0-9a-f]{16,128}$/.test(fromUrl)) storage.setItem(TOKEN_KEY, fromUrl);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(history.state, '', `${loc.pathname}${rest ? `?${rest}` : ''}${loc.hash}`);
  }
  return storage.getItem(TOKEN_KEY);
}
