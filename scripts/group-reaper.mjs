// A watchdog for the process groups a runner starts (npm test, test:stress): a small detached
// process told each group's id, which SIGKILLs every group it still holds once the runner is gone,
// however it ended (SIGKILL included: its IPC channel closes). The runner's own exit handler
// kills them too; this covers the end no handler sees. A group may come with its stage's temporary
// directory (scripts/stage-tmp.mjs), which the watchdog then removes after killing the group.
import { spawn } from 'node:child_process';

const WATCHDOG = `
  const groups = new Map();
  process.on('message', (m) => { if (m.add) groups.set(m.add, m.dir); if (m.remove) groups.delete(m.remove); });
  process.on('disconnect', () => {
    for (const g of groups.keys()) { try { process.kill(-g, 'SIGKILL'); } catch {} }
    for (const d of groups.values()) { if (d) try { require('node:fs').rmSync(d, { recursive: true, force: true, maxRetries: 3 }); } catch {} }
    process.exit(0);
  });`;

export function startReaper() {
  let dog = null;
  try {
    dog = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], detached: true });
    dog.on('error', () => (dog = null));
    dog.unref();
    dog.channel?.unref();
  } catch {
    dog = null;
  }
  const send = (m) => {
    try {
      dog?.send(m);
    } catch {
      // the watchdog is gone: the exit handler still kills the groups
    }
  };
  return {
    /** `dir`: the group's temporary directory, removed with it */
    add: (pgid, dir) => send({ add: pgid, ...(dir ? { dir } : {}) }),
    remove: (pgid) => send({ remove: pgid }),
  };
}
