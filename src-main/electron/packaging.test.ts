// The package users install: electron-builder.yml as electron-builder reads it (js-yaml, the
// parser it uses). Fuses flipped at packaging, the app loaded only from its asar (integrity
// checked), only the built bundles shipped, and the one file that must sit outside the asar
// (the exchange's snapshot worker thread and the chunks it imports).
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

interface BuilderConfig {
  asar?: boolean;
  files?: string[];
  asarUnpack?: string[];
  electronFuses?: Record<string, boolean>;
  extraMetadata?: { main?: string };
}

const config = load(readFileSync(new URL('../../electron-builder.yml', import.meta.url), 'utf8')) as BuilderConfig;

describe('the packaged app (electron-builder.yml)', () => {
  it('flips the fuses: no run-as-node, no NODE_OPTIONS, no --inspect, encrypted cookies, asar only, asar integrity', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('packs the app into an asar and ships only the built bundles', () => {
    expect(config.asar).toBe(true);
    expect(config.files).toEqual(['out/**', 'package.json', '!**/*.map']);
    expect(config.extraMetadata?.main).toBe('out/main/index.js');
  });

  it('unpacks only native modules, the snapshot worker, the recorder store thread and the strategy thread (worker threads load their script from disk)', () => {
    expect(config.asarUnpack).toEqual(['**/*.node', 'out/main/snapshot-worker-thread.js', 'out/main/recorder-store-thread.js', 'out/main/strategy-thread.js', 'out/main/chunks/**']);
  });

  it('runs the embedded exchange as a utility process (run-as-node is off, so never a fork)', () => {
    const main = readFileSync(new URL('./main.ts', import.meta.url), 'utf8');
    expect(main).toContain('utilityProcess.fork(exchangeEntry');
    expect(main).not.toMatch(/child_process/);
  });
});
