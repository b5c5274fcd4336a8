import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import {
  type StepUpFields as StepUpValues,
  StepUpFieldsSchema,
  TEXT_MAX,
} from '@paydesk/shared/security/security.schemas.ts';
import { type HttpError, isHttpError } from '../lib/http.ts';
import { isMissing, zodRule } from '../lib/zod-rule.ts';

export type { StepUpValues };

/**
 * The statuses a step-up form shows itself: 400 two_factor_required, 422 a wrong code or field, 423 a
 * payment lock (with the minutes left), 429 a throttle.
 */
export const STEP_UP_HANDLED = [400, 422, 423, 429] as const;

/** The two factors as the server takes them (the code without the spaces a paste may bring). */
export const stepUpBody = (values: StepUpValues): StepUpValues => ({
  payment_password: values.payment_password,
  code: values.code.trim(),
});

/** The server refused because the user has not bound and enabled two-factor authentication yet. */
export const isTwoFactorRequired = (error: unknown): error is HttpError =>
  isHttpError(error) && error.code === ERROR_CODES.twoFactorRequired;

const PAYMENT_PASSWORD_CODES = new Set<string>([
  ERROR_CODES.paymentPasswordIncorrect,
  ERROR_CODES.paymentPasswordRequired,
]);

/**
 * What the form shows of a refusal: each field the server names under that field (`Name`: the form's own
 * fields beside the two factors); a refusal of the payment password under it; anything else (a wrong
 * code, a lock, a throttle) under the code.
 */
export function stepUpFormErrors<Name extends string = never>(
  error: HttpError,
): { name: NoInfer<Name> | keyof StepUpValues; errors: string[] }[] {
  const fallback = error.code && PAYMENT_PASSWORD_CODES.has(error.code) ? 'payment_password' : 'code';
  return error.formErrors<Name | keyof StepUpValues>(fallback);
}

/**
 * The payment password and the 6-digit Google code that every money-moving form asks for (DESIGN section
 * 5), as two items of the form it sits in: `payment_password` and `code`.
 */
export function StepUpFields({ autoFocus = false }: { autoFocus?: boolean }) {
  const { t } = useTranslation('common');
  return (
    <>
      <Form.Item
        name="payment_password"
        label={t('stepUp.paymentPassword')}
        required
        rules={[
          zodRule(StepUpFieldsSchema.shape.payment_password, () => t('stepUp.paymentPasswordRequired')),
        ]}
      >
        <Input.Password autoComplete="off" autoFocus={autoFocus} maxLength={TEXT_MAX} />
      </Form.Item>
      <Form.Item
        name="code"
        label={t('stepUp.code')}
        extra={t('stepUp.codeHelp')}
        required
        rules={[
          zodRule(StepUpFieldsSchema.shape.code, (issue) =>
            isMissing(issue) ? t('stepUp.codeRequired') : t('stepUp.codeLength'),
          ),
        ]}
      >
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
      </Form.Item>
    </>
  );
}
