// The command bus: keyboard, palette and buttons all run actions by id; the feature that owns an
// action registers its handler. Features never call each other, they only run commands.
import { useEffect, useRef } from 'react';
import type { OrderOrigin } from '../../src-shared/ipc/contract';

/**
 * Which gesture ran a command: a key of the key map, the command palette, a button on screen, or
 * the app menu. A command that sends, cancels or amends passes it on as the order's origin, so the
 * audit journal says which surface each order came from.
 */
export type CommandSource = 'key' | 'palette' | 'button' | 'menu';

/** The order origin of a command's gesture. */
export function originOf(via: CommandSource): OrderOrigin {
  return via === 'key' ? 'hotkey' : via;
}

type Handler = (via: CommandSource) => void;
const handlers = new Map<string, Handler[]>();

/** Registers a handler; the most recently registered one runs. */
export function registerCommand(id: string, handler: Handler): () => void {
  const list = handlers.get(id) ?? [];
  list.push(handler);
  handlers.set(id, list);
  return () => {
    const current = handlers.get(id);
    if (!current) return;
    const i = current.lastIndexOf(handler);
    if (i >= 0) current.splice(i, 1);
    if (current.length === 0) handlers.delete(id);
  };
}

export function hasCommand(id: string): boolean {
  return (handlers.get(id)?.length ?? 0) > 0;
}

/** Runs a command, saying which gesture ran it (a button on screen unless told); false when nothing handles it right now. */
export function runCommand(id: string, via: CommandSource = 'button'): boolean {
  const list = handlers.get(id);
  const handler = list?.[list.length - 1];
  if (!handler) return false;
  handler(via);
  return true;
}

/** Registers `handler` for the component's lifetime, always calling its latest version. */
export function useCommand(id: string, handler: Handler, enabled = true): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!enabled) return undefined;
    return registerCommand(id, (via) => ref.current(via));
  }, [id, enabled]);
}

/** Registers several commands at once (a list built from data), each calling its latest handler. */
export function useCommands(entries: readonly (readonly [id: string, handler: Handler, enabled?: boolean])[]): void {
  const ref = useRef(entries);
  ref.current = entries;
  const key = entries.map(([id, , enabled]) => `${id}:${enabled === false ? 0 : 1}`).join(',');
  useEffect(() => {
    const offs = ref.current
      .filter(([, , enabled]) => enabled !== false)
      .map(([id]) => registerCommand(id, (via) => ref.current.find(([x]) => x === id)?.[1](via)));
    return () => offs.forEach((off) => off());
  }, [key]);
}
