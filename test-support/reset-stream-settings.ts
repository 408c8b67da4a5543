// The node project's files share a worker's modules (vitest.config.ts, isolate: false), so a file
// that tunes the exchange's stream (a shorter ping, a smaller buffer limit) before starting its
// exchange would tune every exchange started after it in that worker: ws-feeds' 150-ms ping once
// cut off ws-book's paused client mid-test. After each file the settings are the defaults again.
import { afterAll } from 'vitest';
import { DEFAULT_STREAM_SETTINGS, streamSettings } from '../src-exchange/ws/settings';

afterAll(() => {
  Object.assign(streamSettings, DEFAULT_STREAM_SETTINGS);
});
