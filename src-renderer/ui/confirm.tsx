// A promise-returning confirmation: `if (await confirmAction({...})) doIt()`, a choice among
// several actions: `const c = await chooseAction({...})` (null when the trader backs out), and a
// short text asked the same way: `const code = await askText({...})`.
import { useState } from 'react';
import { create } from 'zustand';
import { Modal } from './Modal';

interface Choice {
  label: string;
  value: string;
  danger?: boolean;
}

interface ConfirmRequest {
  title: string;
  body: string;
  /** the actions offered beside Keep, the last one styled as the main one; Keep is focused (Enter never does anything but keep) */
  choices: Choice[];
  /** a text field shown under the body; its value is what the promise resolves with */
  input?: { label: string };
  resolve: (value: string | null) => void;
}

const useConfirmStore = create<{ req: ConfirmRequest | null }>()(() => ({ req: null }));

export function chooseAction(opts: { title: string; body: string; choices: Choice[]; input?: { label: string } }): Promise<string | null> {
  return new Promise((resolve) => {
    useConfirmStore.getState().req?.resolve(null);
    useConfirmStore.setState({ req: { ...opts, resolve } });
  });
}

export async function confirmAction(opts: { title: string; body: string; confirmLabel: string; danger?: boolean }): Promise<boolean> {
  const choice = await chooseAction({ title: opts.title, body: opts.body, choices: [{ label: opts.confirmLabel, value: 'ok', ...(opts.danger ? { danger: true } : {}) }] });
  return choice === 'ok';
}

/** Asks for a short text (e.g. a code shown elsewhere); null when the trader backs out. */
export function askText(opts: { title: string; body: string; label: string; confirmLabel: string }): Promise<string | null> {
  return chooseAction({ title: opts.title, body: opts.body, choices: [{ label: opts.confirmLabel, value: 'ok' }], input: { label: opts.label } });
}

export function ConfirmHost() {
  const req = useConfirmStore((s) => s.req);
  const [text, setText] = useState('');
  const done = (value: string | null) => {
    req?.resolve(value !== null && req.input ? text : value);
    setText('');
    useConfirmStore.setState({ req: null });
  };
  const choices = req?.choices ?? [];
  // the safe answer has focus, whatever is asked: Enter keeps; a dialog that asks for a text (the
  // console's code) focuses its field instead, and Enter there confirms only once something is typed
  const keepFocused = !req?.input;
  return (
    <Modal
      open={req !== null}
      onClose={() => done(null)}
      title={req?.title ?? ''}
      narrow
      footer={
        <>
          <button type="button" className="btn" onClick={() => done(null)} {...(keepFocused ? { 'data-autofocus': true } : {})}>
            Keep
          </button>
          {choices.map((c, i) => (
            <button
              key={c.value}
              type="button"
              className={`btn ${c.danger ? 'btn-danger' : i === choices.length - 1 ? 'btn-primary' : ''}`}
              onClick={() => done(c.value)}
            >
              {c.label}
            </button>
          ))}
        </>
      }
    >
      <p className="u-m-0">{req?.body}</p>
      {req?.input ? (
        <input
          type="text"
          aria-label={req.input.label}
          data-autofocus
          autoComplete="off"
          inputMode="numeric"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            if (text.trim()) done('ok');
          }}
        />
      ) : null}
    </Modal>
  );
}
