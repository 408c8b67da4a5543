// Main's own JSON files (profiles, preferences, risk limits, window state): read against a schema
// with an error naming the file (never overwritten), written atomically with mode 0600.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { ConfigFileError } from './errors';

export function readJsonFile<T>(file: string, schema: z.ZodType<T>, fallback: () => T): T {
  if (!existsSync(file)) return fallback();
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigFileError(`${file} is not valid JSON (${(e as Error).message}); fix or move it away, nothing was changed`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigFileError(`${file} is not a valid file: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}; nothing was changed`);
  }
  return parsed.data;
}

export function writeJsonFile(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
}
