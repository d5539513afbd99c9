import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'secondary' | 'danger' | 'quiet';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  /** Shows the button as working and keeps it from being pressed twice. */
  busy?: boolean;
  small?: boolean;
}

export function Button({ variant = 'secondary', busy = false, small = false, className, disabled, children, type = 'button', ...rest }: ButtonProps) {
  const classes = ['button', `button--${variant}`, small ? 'button--small' : '', busy ? 'is-busy' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {children}
    </button>
  );
}
