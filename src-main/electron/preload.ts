// The preload exposes exactly one typed API on window.terminal and nothing else: no ipcRenderer,
// no Node. `call` sends a method and its arguments through one channel to main's door and hands
// back the door's answer as plain data (an Error thrown across the context bridge would lose its
// kind, code and confirmable); the renderer derives the contract's methods over it. Views arrive
// on another channel.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { STREAM_NAMES, type StreamName } from '../../src-shared/ipc/names';
import type { DoorResult, PreloadApi } from '../../src-shared/ipc/contract';

const api: PreloadApi = {
  // passed on as given: the door parses both (a name it does not declare, or bad arguments, is refused there)
  call: async (method, args) => (await ipcRenderer.invoke('terminal:call', method, args)) as DoorResult,
  on: (stream, listener) => {
    if (!STREAM_NAMES.includes(stream)) throw new Error(`unknown stream ${String(stream)}`);
    const handler = (_e: IpcRendererEvent, s: StreamName, payload: unknown) => {
      if (s === stream) (listener as (p: unknown) => void)(payload);
    };
    ipcRenderer.on('terminal:event', handler);
    return () => ipcRenderer.removeListener('terminal:event', handler);
  },
};

contextBridge.exposeInMainWorld('terminal', Object.freeze(api));
