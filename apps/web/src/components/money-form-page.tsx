import { ReloadOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Card, Result, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../lib/auth/get-current-user.ts';
import { PageContainer } from './page-container.tsx';
import { TwoFactorRequired } from './two-factor-required.tsx';

/**
 * A money-moving form's page (Send money, Top up, Withdraw): its options loading, then failed with a retry
 * (`<namespace>:loadFailed`, `<namespace>:retry`), then what shows instead of the form when the options leave
 * nothing to do (`unavailable`, e.g. no channel), then a request to turn on two-factor when the form needs
 * both factors (the server refuses whatever is typed without it), then the form.
 */
export function MoneyFormPage<Data>({
  title,
  namespace,
  options,
  needsTwoFactor = false,
  unavailable,
  form,
}: {
  title: string;
  namespace: string;
  options: UseQueryResult<Data>;
  needsTwoFactor?: boolean;
  unavailable?: (data: Data) => ReactNode;
  form: (data: Data) => ReactNode;
}) {
  const { t } = useTranslation(namespace);
  const user = useCurrentUser();

  const content = (): ReactNode => {
    if (options.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
    if (options.isError) {
      return (
        <Result
          status="warning"
          title={t('loadFailed')}
          extra={
            <Button icon={<ReloadOutlined />} onClick={() => void options.refetch()}>
              {t('retry')}
            </Button>
          }
        />
      );
    }
    const instead = unavailable?.(options.data);
    if (instead) return instead;
    if (needsTwoFactor && user && !user.two_factor_enabled) return <TwoFactorRequired />;
    return form(options.data);
  };

  return (
    <PageContainer title={title}>
      <Card>{content()}</Card>
    </PageContainer>
  );
}
