// The floors fire: each forbidden import, written every way a module can be named (static,
// type-only, `export ... from`, dynamic `import()`, `require()`), placed at a real path of the
// tree, fails ESLint with the message naming its floor; a few allowed imports pass. This runs the
// project's own eslint.config.js through ESLint's Node API (the type-aware parser options off and
// only the import rules kept, so it takes seconds, not the full lint's minute).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let eslint: ESLint;
beforeAll(async () => {
  eslint = new ESLint({
    cwd: root,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    // every import-boundary rule the config has (and had: no-restricted-*, import-x), nothing else
    ruleFilter: ({ ruleId }) => /floors|restricted/.test(ruleId),
  });
  // The first lint loads the config, the parser and the plugins: done here, under a hook timeout
  // a loaded machine cannot reach, so no single case carries the load.
  await eslint.lintText('', { filePath: path.join(root, 'src-shared/x.ts') });
}, 300_000);

// Every way a module is named, one per line of one snippet (one lint per case keeps it quick).
const FORMS: [string, (spec: string) => string][] = [
  ['static', (s) => `import { a1 } from '${s}';`],
  ['type-only', (s) => `import type { A2 } from '${s}';`],
  ['re-export', (s) => `export { a3 } from '${s}';`],
  ['export *', (s) => `export * from '${s}';`],
  ['dynamic import()', (s) => `export const a5 = () => import('${s}');`],
  ['require', (s) => `export const a6 = require('${s}');`],
  ['typeof import()', (s) => `export type A7 = typeof import('${s}');`],
];
const snippet = (spec: string) => [...FORMS.map(([, f]) => f(spec)), 'export const a8 = a1;', 'export type A9 = A2;', ''].join('\n');

async function messages(file: string, code: string): Promise<{ line: number; text: string }[]> {
  const [r] = await eslint.lintText(code, { filePath: path.join(root, file) });
  if (!r) throw new Error(`no lint result for ${file}`);
  return r.messages.map((m) => ({ line: m.line, text: `${m.ruleId ?? 'fatal'}: ${m.message}` }));
}

// [file importing, specifier, the floor's message (a part of it)]
const FORBIDDEN: [string, string, string][] = [
  // renderer: app -> features -> services/ui/hooks -> stores -> lib; test/ for tests only
  ['src-renderer/features/ladder/x.ts', '../../app/App', 'features never import app/'],
  ['src-renderer/features/ladder/x.ts', '../orders/OrdersPanel', 'features never import each other (ladder is a feature)'],
  ['src-renderer/hooks/x.ts', '../features/ladder/LadderPanel', 'shared code (services, ui, hooks, stores, lib) never imports a feature'],
  ['src-renderer/ui/x.tsx', '../features/markets/MarketsPanel', 'never imports a feature'],
  ['src-renderer/services/x.ts', '../app/App', 'shared code (services, ui, hooks, stores, lib) never imports app/'],
  ['src-renderer/stores/x.ts', '../hooks/useLatest', 'stores/ and lib/ sit below services, ui and hooks'],
  ['src-renderer/lib/x.ts', '../ui/DataTable', 'stores/ and lib/ sit below services, ui and hooks'],
  ['src-renderer/lib/x.ts', '../stores/settings', 'lib/ is the lowest floor'],
  ['src-renderer/lib/x.ts', '../test/render', 'src-renderer/test/ is test support'],
  ['src-renderer/lib/x.ts', '../../test-support/main/markets', 'production code never imports test support'],
  ['src-renderer/ui/x.tsx', '../../src-main/app/services', 'the renderer talks to main only through TerminalApi'],
  ['src-renderer/app/x.tsx', '../../src-exchange/engine/engine', 'the renderer talks to main only through TerminalApi'],
  ['src-renderer/app/x.tsx', 'node:fs', 'the renderer is sandboxed: no Node API'],
  ['src-renderer/app/x.tsx', 'electron', 'only src-main/electron imports electron'],
  // src-shared is pure
  ['src-shared/x.ts', 'node:fs', 'src-shared is pure'],
  ['src-shared/wire/x.ts', 'fs/promises', 'src-shared is pure'],
  ['src-shared/x.ts', 'electron', 'src-shared is pure'],
  ['src-shared/x.ts', 'react-dom/client', 'src-shared is pure'],
  ['src-shared/ipc/x.ts', '../../src-main/base/errors', 'src-shared imports nothing outside itself'],
  ['src-shared/x.ts', '../test-support/main/markets', 'production code never imports test support'],
  // main: lower floors never import app/; base/ imports nothing of main; the exchange over the wire
  ['src-main/recorder/x.ts', '../app/profiles-service', "main's lower floors"],
  ['src-main/fix/x.ts', '../app/profiles-service', "main's lower floors"],
  ['src-main/strategies/x.ts', '../app/trading-service', "main's lower floors"],
  ['src-main/conditional/x.ts', '../app/services', "main's lower floors"],
  ['src-main/base/x.ts', '../session/session', "base/ is main's bottom floor"],
  ['src-main/app/x.ts', '../../test-support/main/markets', 'production code never imports test support'],
  ['src-main/host/x.ts', '../../integration/x', 'production code never imports test support'],
  ['src-main/app/x.ts', '../chaos/world', 'production main never imports chaos/'],
  ['src-main/app/x.ts', '../../src-exchange/http/server', 'main knows the exchange over the wire'],
  ['src-main/strategies/x.ts', '../../src-exchange/replay/tape', 'in-process only through src-exchange/for-main.ts'],
  ['src-main/strategies/x.ts', '../../src-exchange/engine/fees', 'in-process only through src-exchange/for-main.ts'],
  ['src-main/recorder/x.ts', '../../src-exchange/core/snapshot-worker', 'in-process only through src-exchange/for-main.ts'],
  ['src-exchange/replay/x.ts', '../for-main', "for-main.ts is main's entry into the exchange"],
  ['src-main/app/x.ts', '../../src-renderer/lib/format', 'main never imports the renderer'],
  ['src-main/app/x.ts', 'electron', 'only src-main/electron imports electron'],
  // the exchange knows nothing of the terminal
  ['src-exchange/engine/x.ts', '../../src-main/app/services', 'the exchange knows nothing of the terminal'],
  ['src-exchange/http/x.ts', '../../test-support/exchange/x', 'production code never imports test support'],
  // the exchange's floors: engine <- journal, state <- core <- the doors <- the composition
  ['src-exchange/engine/x.ts', '../state/catalog', 'engine/ is the bottom floor'],
  ['src-exchange/engine/x.ts', '../core/services', 'engine/ is the bottom floor'],
  ['src-exchange/engine/x.ts', '../ws/hub', 'engine/ is the bottom floor'],
  ['src-exchange/journal/x.ts', '../core/node', 'journal/ sits on engine/ only'],
  ['src-exchange/state/x.ts', '../core/services', 'state/ sits on engine/ only'],
  ['src-exchange/state/x.ts', '../handlers/support', 'state/ sits on engine/ only'],
  ['src-exchange/state/x.ts', '../server-types', 'state/ sits on engine/ only'],
  ['src-exchange/core/x.ts', '../handlers/support', 'core/ never imports a door or the composition'],
  ['src-exchange/core/x.ts', '../http/app', 'core/ never imports a door or the composition'],
  ['src-exchange/core/x.ts', '../sim/index', 'core/ never imports a door or the composition'],
  ['src-exchange/core/x.ts', '../server', 'core/ never imports a door or the composition'],
  ['src-exchange/ws/x.ts', '../server', 'a door never imports the composition'],
  ['src-exchange/fix/x.ts', '../bootstrap', 'a door never imports the composition'],
  ['src-exchange/handlers/x.ts', '../fuzz/fuzz', 'a door never imports the composition'],
  ['src-exchange/replay/x.ts', '../cli', 'a door never imports the composition'],
  ['src-exchange/fix/x.ts', '../handlers/engine-access', 'the doors (fix is one) never import each other or handlers/'],
  ['src-exchange/ws/x.ts', '../fix/session', 'the doors (ws is one) never import each other or handlers/'],
  ['src-exchange/sim/x.ts', '../replay/player', 'the doors (sim is one) never import each other or handlers/'],
  ['src-exchange/replay/x.ts', '../ws/hub', 'the doors (replay is one) never import each other or handlers/'],
];

const ALLOWED: [string, string][] = [
  ['src-renderer/app/x.tsx', '../features/ladder/LadderPanel'],
  ['src-renderer/features/ladder/x.ts', './paint'],
  ['src-renderer/features/ladder/x.ts', '../../hooks/useLatest'],
  ['src-renderer/features/ladder/x.ts', '../../stores/settings'],
  ['src-renderer/hooks/x.ts', '../stores/settings'],
  ['src-renderer/stores/x.ts', '../lib/format'],
  ['src-renderer/lib/x.test.ts', '../test/render'],
  ['src-shared/wire/x.ts', '../money'],
  ['src-shared/x.ts', 'zod'],
  ['src-main/strategies/x.ts', '../session/active-session'],
  ['src-main/app/x.ts', '../recorder/recorder'],
  ['src-main/app/x.ts', '../../src-exchange/for-main'],
  ['src-main/strategies/x.test.ts', '../../src-exchange/replay/synthetic'],
  ['src-main/app/x.test.ts', '../../test-support/main/markets'],
  ['src-main/chaos/host-kill.ts', '../../test-support/main/markets'],
  ['src-main/electron/x.ts', 'electron'],
  ['src-exchange/engine/x.ts', './hash'],
  ['src-exchange/journal/x.ts', '../engine/archive'],
  ['src-exchange/state/x.ts', '../engine/types'],
  ['src-exchange/state/x.ts', './domain'],
  ['src-exchange/state/x.test.ts', '../sim/wallet-seed'],
  ['src-exchange/core/x.ts', '../state/domain'],
  ['src-exchange/core/x.ts', '../journal/journal'],
  ['src-exchange/fix/x.ts', '../core/services'],
  ['src-exchange/ws/x.ts', '../http/app'],
  ['src-exchange/sim/x.ts', '../server-types'],
  ['src-exchange/handlers/x.ts', '../sim/livedata'],
  ['src-exchange/x.ts', './handlers/index'],
];

describe('floors fire (eslint.config.js, local/floors)', () => {
  for (const [file, spec, floor] of FORBIDDEN) {
    it(`${file} -> ${spec} fails in every form: ${floor}`, async () => {
      const got = await messages(file, snippet(spec));
      const shown = got.map((m) => `${m.line} ${m.text}`).join('\n') || '(no error)';
      FORMS.forEach(([form], i) => {
        expect(got.some((m) => m.line === i + 1 && m.text.includes(floor)), `${form}:\n${shown}`).toBe(true);
      });
    });
  }

  it('src-shared uses no DOM-only or Node-only globals', async () => {
    const uses = ['window.location.href', 'document.title', 'process.env.HOME', 'Buffer.from("a")'];
    const got = await messages('src-shared/x.ts', uses.map((u, i) => `export const v${i} = ${u};`).join('\n'));
    uses.forEach((u, i) => expect(got.some((m) => m.line === i + 1 && m.text.includes('src-shared is pure: no DOM-only or Node-only globals')), u).toBe(true));
  });

  for (const [file, spec] of ALLOWED) {
    it(`${file} -> ${spec} passes in every form`, async () => {
      expect(await messages(file, snippet(spec))).toEqual([]);
    });
  }
});
