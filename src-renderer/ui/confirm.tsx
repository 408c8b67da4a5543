// A promise-returning confirmation: `if (await confirmAction({...})) doIt()`, and a choice among
// several actions: `const c = await chooseAction({...})` (null when the trader backs out).
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
  /** the actions offered beside Keep; the last one is focused unless it is dangerous (then Keep is: Enter never does the harm) */
  choices: Choice[];
  resolve: (value: string | null) => void;
}

const useConfirmStore = create<{ req: ConfirmRequest | null }>()(() => ({ req: null }));

export function chooseAction(opts: { title: string; body: string; choices: Choice[] }): Promise<string | null> {
  return new Promise((resolve) => {
    useConfirmStore.getState().req?.resolve(null);
    useConfirmStore.setState({ req: { ...opts, resolve } });
  });
}

export async function confirmAction(opts: { title: string; body: string; confirmLabel: string; danger?: boolean }): Promise<boolean> {
  const choice = await chooseAction({ title: opts.title, body: opts.body, choices: [{ label: opts.confirmLabel, value: 'ok', ...(opts.danger ? { danger: true } : {}) }] });
  return choice === 'ok';
}

export function ConfirmHost() {
  const req = useConfirmStore((s) => s.req);
  const done = (value: string | null) => {
    req?.resolve(value);
    useConfirmStore.setState({ req: null });
  };
  const choices = req?.choices ?? [];
  const keepFocused = choices[choices.length - 1]?.danger === true;
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
              {...(i === choices.length - 1 && !keepFocused ? { 'data-autofocus': true } : {})}
            >
              {c.label}
            </button>
          ))}
        </>
      }
    >
      <p className="u-m-0">{req?.body}</p>
    </Modal>
  );
}
