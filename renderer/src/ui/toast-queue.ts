export type ToastTone = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  message: string;
  tone: ToastTone;
}

export const MAX_TOASTS = 4;

export type ToastAction = { type: 'add'; toast: Toast } | { type: 'dismiss'; id: number };

/** Newest last; the same message twice in a row is shown once, and old ones fall off past MAX_TOASTS. */
export function toastQueue(toasts: Toast[], action: ToastAction): Toast[] {
  switch (action.type) {
    case 'add': {
      const rest = toasts.filter((toast) => toast.message !== action.toast.message);
      return [...rest, action.toast].slice(-MAX_TOASTS);
    }
    case 'dismiss':
      return toasts.filter((toast) => toast.id !== action.id);
  }
}
