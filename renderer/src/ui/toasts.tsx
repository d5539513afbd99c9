import { createContext, useCallback, useContext, useEffect, useReducer, useRef, type ReactNode } from 'react';
import { toastQueue, type Toast, type ToastTone } from './toast-queue';

type ShowToast = (message: string, tone?: ToastTone) => void;

const ToastContext = createContext<ShowToast | null>(null);

const TOAST_MS = 5000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, dispatch] = useReducer(toastQueue, []);
  const nextId = useRef(1);

  const show = useCallback<ShowToast>((message, tone = 'info') => {
    const id = nextId.current++;
    dispatch({ type: 'add', toast: { id, message, tone } });
  }, []);

  return (
    <ToastContext value={show}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={() => dispatch({ type: 'dismiss', id: toast.id })} />
        ))}
      </div>
    </ToastContext>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  const dismissRef = useRef(onDismiss);
  useEffect(() => {
    dismissRef.current = onDismiss;
  });
  useEffect(() => {
    const timer = window.setTimeout(() => dismissRef.current(), toast.tone === 'error' ? TOAST_MS * 2 : TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [toast.tone]);
  return (
    <div className={`toast toast--${toast.tone}`}>
      <span>{toast.message}</span>
      <button type="button" className="toast__close" onClick={onDismiss} aria-label="Dismiss notification">
        ×
      </button>
    </div>
  );
}

export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a ToastProvider');
  return show;
}
