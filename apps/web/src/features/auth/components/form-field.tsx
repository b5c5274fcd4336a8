import { type InputHTMLAttributes, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A labelled input with its error in place. The login route draws its few fields itself instead of
 * antd's Form, Input and Button, which would put it over its 250 KB budget (DESIGN section 8).
 */
export function FormField({
  id,
  label,
  error,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { id: string; label: string; error?: string; hint?: ReactNode }) {
  const [isRevealed, setIsRevealed] = useState(false);
  const { t } = useTranslation('auth');
  const isPassword = input.type === 'password';
  const errorId = `${id}-error`;
  return (
    <div className={`form-field${error ? ' form-field--error' : ''}`}>
      <label htmlFor={id} className="form-field__label">
        {label}
      </label>
      <div className="form-field__control">
        <input
          {...input}
          id={id}
          name={id}
          type={isPassword && isRevealed ? 'text' : input.type}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="form-field__input"
        />
        {isPassword && (
          <button
            type="button"
            className="form-field__reveal"
            aria-label={isRevealed ? t('hidePassword') : t('showPassword')}
            aria-pressed={isRevealed}
            onClick={() => setIsRevealed(!isRevealed)}
          >
            <EyeIcon isOpen={isRevealed} />
          </button>
        )}
      </div>
      {hint}
      <div id={errorId} className="form-field__error" role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}

function EyeIcon({ isOpen }: { isOpen: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
    >
      <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {!isOpen && <path d="M4 20 20 4" strokeLinecap="round" />}
    </svg>
  );
}

export function SubmitButton({ isBusy, children }: { isBusy: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="submit-button" disabled={isBusy} aria-busy={isBusy}>
      {isBusy && <span className="submit-button__busy" aria-hidden="true" />}
      {children}
    </button>
  );
}
