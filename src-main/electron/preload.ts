// The preload exposes exactly TerminalApi on window.terminal and nothing else: no ipcRenderer,
// no Node. Calls go through one channel to main's door; views arrive on another. Its methods are
// the contract's (METHOD_NAMES is derived from the channels there; the bundle carries them).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { METHOD_NAMES, STREAM_NAMES, type StreamName, type TerminalError } from '../../src-shared/ipc/contract';

type DoorResult = { ok: true; value: unknown } | { ok: false; error: TerminalError };

const api: Record<string, unknown> = {};
for (const method of METHOD_NAMES) {
  api[method] = async (...args: unknown[]) => {
    const r = (await ipcRenderer.invoke('terminal:call', method, args)) as DoorResult;
    if (r.ok) return r.value;
    throw Object.assign(new Error(r.error.message), r.error);
  };
}
api.on = (stream: StreamName, listener: (payload: unknown) => void) => {
  if (!STREAM_NAMES.includes(stream)) throw new Error(`unknown stream ${String(stream)}`);
  const handler = (_e: IpcRendererEvent, s: StreamName, payload: unknown) => {
    if (s === stream) listener(payload);
  };
  ipcRenderer.on('terminal:event', handler);
  return () => ipcRenderer.removeListener('terminal:event', handler);
};

contextBridge.exposeInMainWorld('terminal', Object.freeze(api));
