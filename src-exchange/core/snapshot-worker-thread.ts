// The snapshot worker's thread: a replica of the exchange core that follows the journal on disk
// and serialises snapshots off the exchange's event loop. The core is deterministic (same
// snapshot + same commands = same state), so replaying exactly what the journal holds gives
// exactly the state the exchange had at that seq: the same thing a restart relies on.
//
// Asked for a snapshot through seq S (S is durable, so every frame up to it is complete on
// disk), the thread reads the journal from where it stopped last time up to S, applies those
// records, appends to the history archive what it lacks (engine/archive.ts: finished orders,
// fills and trades are written once, not in every snapshot), makes that durable, then writes the
// snapshot of the live state (naming where the archive ends) durably under the journal's temp
// name and answers with its seq. It never reads past S, so a frame being written at that moment
// is never looked at. The exchange's event loop does no extra work per command: the replica reads
// what the journal already wrote.
import { readFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { decodeSnapshotFile, encodeSnapshotFile } from '../journal/frame';
import { JournalFollower } from '../journal/follower';
import { listJournalDir } from '../journal/files';
import { snapshotTempPath, writeFileDurably } from '../journal/journal';
import { ArchiveWriter, pruneArchives, readArchive } from '../journal/archive-file';
import { HistoryArchiver } from '../engine/archive';
import { ExchangeCore, type CoreCommand, type CoreSnapshot } from './core';
import type { ToSnapshotWorker, FromSnapshotWorker } from './snapshot-worker';

if (!parentPort) throw new Error('snapshot-worker-thread runs only as a worker thread');
const port = parentPort;
const { dir } = workerData as { dir: string };

// Background work: on Linux a thread has its own nice value and setpriority(0) names the calling
// thread, so this lowers only the replica's thread, never the event loop answering requests: on a
// busy machine the scheduler gives the replay and the serialisation the cycles nobody waiting
// needs. (V8's garbage-collection helper threads are shared by the process and keep their
// priority.) Elsewhere setPriority may apply to the whole process: it is only done on Linux.
if (process.platform === 'linux') {
  try {
    setPriority(19);
  } catch {
    /* not permitted: run at the normal priority */
  }
}

let core: ExchangeCore | null = null;
/** what the archive holds, and its file (null: the next snapshot starts a new generation) */
let archiver = new HistoryArchiver();
let archive: ArchiveWriter | null = null;
let seq = 0;
/** reads the journal on from the replica's seq (made once the base is loaded) */
let follower: JournalFollower | null = null;

function post(msg: FromSnapshotWorker): void {
  port.postMessage(msg);
}

/** The newest readable snapshot at or before `upTo`, or a fresh core. */
async function loadBase(upTo: number): Promise<void> {
  for (const snap of (await listJournalDir(dir)).snapshots) {
    if (snap.seq > upTo) continue;
    const decoded = decodeSnapshotFile(await readFile(path.join(dir, snap.name)));
    if (!decoded.ok) continue;
    const state = JSON.parse(decoded.json) as CoreSnapshot;
    if (state.archive) {
      const history = await readArchive(dir, state.archive);
      // copied: the archiver below keeps `history`, whose objects the engine must not share
      core = ExchangeCore.fromSnapshot(state, history);
      archiver = HistoryArchiver.resume(history, state.archive.records);
      archive = await ArchiveWriter.resume(dir, state.archive);
    } else {
      core = ExchangeCore.adopt(state);
    }
    seq = decoded.seq;
    return;
  }
  core = new ExchangeCore();
  seq = 0;
}

/** Apply the journal's records after the replica's, through `target` (null: what is on disk now). */
async function catchUp(target: number | null): Promise<void> {
  if (!core) await loadBase(target ?? Number.MAX_SAFE_INTEGER);
  follower ??= new JournalFollower(dir, seq, (payload) => core!.apply(JSON.parse(payload) as CoreCommand));
  await follower.catchUp(target);
  seq = follower.seq;
}

let chain: Promise<void> = Promise.resolve();
let dead = false;

/** How often the replica reads what the journal wrote since, between snapshots. */
const FOLLOW_MS = 25;
let following = false;

/**
 * Between snapshots the replica follows the journal in small steps (at 5,000 commands a second,
 * about a millisecond of work every 25 ms) instead of replaying everything at once when a
 * snapshot is asked for: on a machine with few cores a burst of replay beside the exchange's
 * event loop showed up in its latency even at the lowest priority. The step does not slow down
 * when the journal is quiet (tried: the first step after a pause then replayed up to a second's
 * worth at once, and typical runs of the HTTP bench went from 7.5-9 to 10-11 ms); a quiet step
 * costs one stat and one directory read.
 */
function follow(): void {
  setTimeout(() => {
    run(() => catchUp(null)).then(() => {
      if (!dead) follow();
    }, noop);
  }, FOLLOW_MS);
}

function noop(): void {}

/** Run `task` after everything queued; the first failure stops the worker and says why. */
function run(task: () => Promise<void>): Promise<void> {
  chain = chain.then(async () => {
    if (dead) return;
    try {
      await task();
    } catch (err) {
      dead = true;
      post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
      port.close();
    }
  });
  return chain;
}

async function handle(msg: ToSnapshotWorker): Promise<void> {
  // Following may have read past the durable seq asked for; the snapshot is then through where
  // the replica is (written, so the journal will have it durable before it adopts the snapshot).
  await catchUp(msg.throughSeq);
  if (seq < msg.throughSeq) throw new Error(`asked for a snapshot at seq ${msg.throughSeq}, replica is at ${seq}`);
  if (!archive || archiver.wantsCompaction()) {
    // a new generation holding only the current history; the old one goes once no snapshot names it
    await archive?.close();
    archive = null;
    archiver.restart();
    archive = await ArchiveWriter.create(dir, seq);
  }
  const { records, finish } = core!.collectArchive(archiver);
  const ref = await archive.append(records);
  // Written and made durable here, beside the journal, under the temp name the journal adopts:
  // the file never enters the exchange's heap.
  await writeFileDurably(snapshotTempPath(dir, seq), encodeSnapshotFile(seq, finish(ref)));
  post({ type: 'snapshot', id: msg.id, throughSeq: seq });
  await pruneArchives(dir, ref.file).catch(() => []); // tidying only: a file left is deleted next time
}

port.on('message', (msg: ToSnapshotWorker) => {
  void run(() => handle(msg));
  if (!following) {
    following = true;
    follow();
  }
});
