import type { ButtonHTMLAttributes } from 'react';
import { Link, type LinkProps } from 'react-router';
import classes from './link-button.module.css';

interface ButtonLook {
  /** `text` in the current colour, `contained` or `outlined` in the primary colour. */
  variant?: 'text' | 'contained' | 'outlined';
  size?: 'small' | 'medium' | 'large';
}

function buttonClassName({ variant = 'text', size = 'medium' }: ButtonLook, className?: string): string {
  return [classes.button, classes[variant], size === 'medium' ? undefined : classes[size], className]
    .filter(Boolean)
    .join(' ');
}

/**
 * A link drawn as the app's MUI Button, with static CSS. The pages every visitor may land on first (the
 * public frame, the landing page, the error and maintenance views) use these instead of MUI's Button, so
 * MUI, its styling engine and ButtonBase (ripple, focus tracking, loading indicator) stay out of the
 * first load (docs/decisions/103). No ripple when pressed; keyboard focus gets the app's outline.
 */
export function LinkButton({ variant, size, className, ...props }: LinkProps & ButtonLook) {
  return <Link className={buttonClassName({ variant, size }, className)} {...props} />;
}

/** A native button with the same look, for an action that is not a link. */
export function ActionButton({
  variant,
  size,
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & ButtonLook) {
  return <button type={type} className={buttonClassName({ variant, size }, className)} {...props} />;
}
