import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { toastQueue, type Toast, type ToastTone } from './toast-queue';

type ShowToast = (message: string, tone?: ToastTone) => void;

const ToastContext = createContext<ShowToast | null>(null);
const ToastListContext = createContext<{ toasts: Toast[]; dismiss: (id: number) => void } | null>(null);

const TOAST_MS = 5000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, dispatch] = useReducer(toastQueue, []);
  const nextId = useRef(1);

  const show = useCallback<ShowToast>((message, tone = 'info') => {
    const id = nextId.current++;
    dispatch({ type: 'add', toast: { id, message, tone } });
  }, []);
  const dismiss = useCallback((id: number) => dispatch({ type: 'dismiss', id }), []);
  const list = useMemo(() => ({ toasts, dismiss }), [toasts, dismiss]);

  return (
    <ToastContext value={show}>
      <ToastListContext value={list}>{children}</ToastListContext>
    </ToastContext>
  );
}

/**
 * Where the toasts show: a strip the shell keeps below the screen, which takes room only while a toast is up, so a
 * toast never covers a control (a screen filling the window gives up the room, its list shrinking for the moment).
 */
export function ToastRegion() {
  const list = useContext(ToastListContext);
  if (!list) throw new Error('ToastRegion needs a ToastProvider');
  return (
    <div className="toasts" role="status" aria-live="polite">
      {list.toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} onDismiss={() => list.dismiss(toast.id)} />
      ))}
    </div>
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
