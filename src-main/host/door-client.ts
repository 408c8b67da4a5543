// A client of the web host's door from another process, as the page talks to it: a WebSocket on
// /ipc with the printed URL's token and the host's own Origin, calls answered by id. Used by the
// chaos runs, the soak and the CLI's tests.
import WebSocket from 'ws';

/** The door's answer to one call: its value, or the refusal it gave (`error?.code` reads either). */
export type DoorAnswer = { ok: true; value: unknown; error?: undefined } | { ok: false; error: DoorRefusal; value?: undefined };

export interface DoorRefusal {
  kind: string;
  code?: string;
  message: string;
  confirmable?: boolean;
}

/** Calls over one socket to the door, answered by id. */
export interface DoorCalls {
  /** the door's answer as it came */
  answer(method: string, ...args: unknown[]): Promise<DoorAnswer>;
  /** the value, or a rejection naming the method and the refusal */
  call<T>(method: string, ...args: unknown[]): Promise<T>;
}

export interface DoorClient extends DoorCalls {
  ws: WebSocket;
}

/** Calls over a socket already open to the door (one of these per socket: each numbers its calls from 1). */
export function doorOver(ws: WebSocket): DoorCalls {
  let next = 1;
  const waiting = new Map<number, (f: DoorAnswer) => void>();
  ws.on('message', (d: WebSocket.RawData) => {
    const f = JSON.parse(d.toString()) as DoorAnswer & { t: string; id?: number };
    if (f.t === 'result' && f.id !== undefined) waiting.get(f.id)?.(f);
  });
  const answer = (method: string, ...args: unknown[]) =>
    new Promise<DoorAnswer>((resolve) => {
      const id = next++;
      waiting.set(id, (f) => {
        waiting.delete(id);
        resolve(f);
      });
      ws.send(JSON.stringify({ t: 'call', id, method, args }));
    });
  const call = async <T,>(method: string, ...args: unknown[]): Promise<T> => {
    const f = await answer(method, ...args);
    if (!f.ok) throw new Error(`${method}: ${f.error.kind} ${f.error.message}`);
    return f.value as T;
  };
  return { answer, call };
}

export async function connectDoor(url: string): Promise<DoorClient> {
  const u = new URL(url);
  const ws = new WebSocket(`ws://${u.host}/ipc?token=${u.searchParams.get('token')}`, { headers: { origin: `http://${u.host}` } });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { ws, ...doorOver(ws) };
}
