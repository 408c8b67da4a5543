// Window bounds kept across launches in userData/window-state.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeJsonFile } from '../base/json-file';

const WindowState = z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int().min(400), height: z.number().int().min(300), maximized: z.boolean() });
export type WindowState = z.infer<typeof WindowState>;

export function loadWindowState(dir: string): WindowState | null {
  try {
    const parsed = WindowState.safeParse(JSON.parse(readFileSync(path.join(dir, 'window-state.json'), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function saveWindowState(dir: string, s: WindowState): void {
  writeJsonFile(path.join(dir, 'window-state.json'), s);
}
