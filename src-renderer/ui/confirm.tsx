// A promise-returning confirmation: `if (await confirmAction({...})) doIt()`.
import { create } from 'zustand';
import { Modal } from './Modal';

interface ConfirmRequest {
  title: string;
  body: string;
  confirmLabel: string;
  danger?: boolean;
  resolve: (ok: boolean) => void;
}

const useConfirmStore = create<{ req: ConfirmRequest | null }>()(() => ({ req: null }));

export function confirmAction(opts: Omit<ConfirmRequest, 'resolve'>): Promise<boolean> {
  return new Promise((resolve) => {
    useConfirmStore.getState().req?.resolve(false);
    useConfirmStore.setState({ req: { ...opts, resolve } });
  });
}

export function ConfirmHost() {
  const req = useConfirmStore((s) => s.req);
  const done = (ok: boolean) => {
    req?.resolve(ok);
    useConfirmStore.setState({ req: null });
  };
  return (
    <Modal
      open={req !== null}
      onClose={() => done(false)}
      title={req?.title ?? ''}
      narrow
      footer={
        <>
          <button type="button" className="btn" onClick={() => done(false)}>
            Keep
          </button>
          <button type="button" className={`btn ${req?.danger ? 'btn-danger' : 'btn-primary'}`} onClick={() => done(true)} data-autofocus>
            {req?.confirmLabel ?? 'OK'}
          </button>
        </>
      }
    >
      <p className="u-m-0">{req?.body}</p>
    </Modal>
  );
}
