// The web host starts its embedded exchange (the slowest part of a start) before it loads the rest
// of the terminal: what out/host/cli.js imports before it spawns the exchange is the small part
// (arguments, the vault's box, the launcher), not the services, the host's server or the schema
// library, which load while the exchange starts. Checked on the bundles `npm run start:web` runs
// (a private build for this file): cli.js's static import graph, chunk by chunk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bundleDir = path.join('out', `test-host-order-${process.pid}-${Date.now().toString(36)}`);
beforeAll(async () => {
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, [path.join(root, 'scripts/build-host.mjs'), '--outdir', bundleDir], { cwd: root }, (e, _out, err) => (e ? reject(new Error(`${e.message}\n${err}`)) : resolve())),
  );
}, 300_000); // only a hang guard
afterAll(() => rmSync(path.join(root, bundleDir), { recursive: true, force: true }));

/** The files a module imports statically (`import ... from "./x.js"`), and those it imports with import(). */
function importsOf(file: string): { statics: string[]; dynamics: string[] } {
  const text = readFileSync(path.join(root, bundleDir, file), 'utf8');
  const statics = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*"\.\/([^"]+)"/gms)].map((m) => m[1]!);
  const bare = [...text.matchAll(/^import\s*"\.\/([^"]+)"/gm)].map((m) => m[1]!);
  const dynamics = [...text.matchAll(/import\("\.\/([^"]+)"\)/g)].map((m) => m[1]!);
  return { statics: [...statics, ...bare], dynamics };
}

/** cli.js and every file it reaches by static imports: what Node loads before cli.js's first line runs. */
function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  const todo = [entry];
  while (todo.length) {
    for (const f of importsOf(todo.pop()!).statics) {
      if (!seen.has(f)) {
        seen.add(f);
        todo.push(f);
      }
    }
  }
  return seen;
}

describe('the web host start', () => {
  it('spawns the exchange from a small static graph: the services, the server and zod load after, by import()', () => {
    const graph = staticGraph('cli.js');
    const text = [...graph].map((f) => readFileSync(path.join(root, bundleDir, f), 'utf8')).join('\n');
    // the spawn itself is in it
    expect(text).toMatch(/function launchExchange\(/);
    // none of the heavy parts: the services (and with them every service's module), the host's
    // HTTP and socket server, fastify, ws, zod
    expect(text).not.toMatch(/\bTerminalServices = class\b|class TerminalServices\b/);
    expect(text).not.toMatch(/function startHost\(/);
    expect(text).not.toMatch(/node_modules\/(zod|ws|fastify)\//);
    expect(text.length, `cli.js's static graph: ${[...graph].join(', ')}`).toBeLessThan(100_000);
    // and they are reached by import() from it
    const later = new Set(importsOf('cli.js').dynamics.flatMap((f) => [...staticGraph(f)]));
    const laterText = [...later].map((f) => readFileSync(path.join(root, bundleDir, f), 'utf8')).join('\n');
    expect(laterText).toMatch(/\bTerminalServices = class\b|class TerminalServices\b/);
    expect(laterText).toMatch(/function startHost\(/);
  });
});
