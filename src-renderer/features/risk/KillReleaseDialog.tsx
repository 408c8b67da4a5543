// Releasing the kill switch while it holds local orders: the dialog says what resumes (orders
// from every panel and key), what does not (nothing canceled comes back, strategies stay stopped)
// and asks per kind whether the held local orders are armed again. Nothing is re-armed unless
// ticked, and Keep (the kill switch stays engaged) is the focused button.
import { useEffect, useState } from 'react';
import type { LocalKind } from '../../../src-shared/ipc/tools';
import { plural } from '../../../src-shared/text';
import { answerKillRelease, KIND_NAMES, useKillRelease } from '../../stores/kill-release';
import { Modal } from '../../ui/Modal';

export function KillReleaseHost() {
  const req = useKillRelease((s) => s.req);
  const [rearm, setRearm] = useState<Set<LocalKind>>(new Set());
  useEffect(() => setRearm(new Set()), [req]);
  const kinds = req ? (Object.entries(req.held) as [LocalKind, number][]).filter(([, n]) => n > 0) : [];
  const toggle = (k: LocalKind, on: boolean) => {
    const next = new Set(rearm);
    if (on) next.add(k);
    else next.delete(k);
    setRearm(next);
  };
  return (
    <Modal
      open={req !== null}
      onClose={() => answerKillRelease(null)}
      title="Release the kill switch?"
      narrow
      footer={
        <>
          <button type="button" className="btn" data-autofocus onClick={() => answerKillRelease(null)}>
            Keep
          </button>
          <button type="button" className="btn btn-danger" onClick={() => answerKillRelease([...rearm])}>
            Release
          </button>
        </>
      }
    >
      <p className="u-m-0">Orders will be accepted again from every panel and key. Nothing canceled comes back; strategies it stopped stay stopped (start them again from Strategies).</p>
      <fieldset className="u-m-0">
        <legend>Local orders it holds: arm again?</legend>
        {kinds.map(([k, n]) => (
          <label key={k} className="row">
            <input type="checkbox" checked={rearm.has(k)} onChange={(e) => toggle(k, e.target.checked)} />
            Re-arm {plural(n, KIND_NAMES[k][0], KIND_NAMES[k][1])}
          </label>
        ))}
        <p className="dim u-m-0">Kinds left unticked are disarmed (arm any again from Orders → Local). A re-armed order whose trigger passed meanwhile asks before it sends.</p>
      </fieldset>
    </Modal>
  );
}
