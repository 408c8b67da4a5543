import { useNotices } from '../stores/notices';

export function Toasts() {
  const toasts = useNotices((s) => s.toasts);
  const dismiss = useNotices((s) => s.dismiss);
  return (
    <div className="toasts" aria-live="polite" aria-relevant="additions">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.level}`} role={t.level === 'error' ? 'alert' : 'status'}>
          <div className="grow">
            <div className="t-title" title={t.title}>
              {t.title}
              {t.repeat > 1 && <span className="badge u-ml-6">×{t.repeat}</span>}
            </div>
            {t.body && (
              <div className="t-body" title={t.body}>
                {t.body}
              </div>
            )}
          </div>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => dismiss(t.id)} aria-label="Dismiss">
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
