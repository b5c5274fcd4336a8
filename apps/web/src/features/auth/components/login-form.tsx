import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../../lib/http.ts';
import { type LoginResult, useLogin } from '../api/login.ts';
import { FormField, SubmitButton } from './form-field.tsx';

type Errors = { username?: string; password?: string };

export function LoginForm({ onDone }: { onDone: (result: LoginResult) => void }) {
  const { t } = useTranslation('auth');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const login = useLogin();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing: Errors = {
      username: username.trim() ? undefined : t('usernameRequired'),
      password: password ? undefined : t('passwordRequired'),
    };
    setErrors(missing);
    if (missing.username || missing.password) return;
    try {
      // The username field is sent as `email` (spec section 7).
      onDone(await login.mutateAsync({ email: username.trim(), password }));
    } catch (error) {
      if (!isHttpError(error)) throw error;
      if (error.isShown) return;
      // The username field is `email` on the wire; an answer that names no field (a throttle) goes there too.
      const fields = error.fieldErrors();
      setErrors({
        username: fields.email ?? (fields.password ? undefined : error.message),
        password: fields.password,
      });
    }
  };

  return (
    <form className="login-form" noValidate onSubmit={submit}>
      <FormField
        id="username"
        label={t('username')}
        error={errors.username}
        autoComplete="username"
        placeholder={t('usernamePlaceholder')}
        value={username}
        onChange={(event) => setUsername(event.target.value)}
        autoFocus
      />
      <FormField
        id="password"
        type="password"
        label={t('password')}
        error={errors.password}
        autoComplete="current-password"
        placeholder={t('passwordPlaceholder')}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <SubmitButton isBusy={login.isPending}>{t('submit')}</SubmitButton>
    </form>
  );
}
