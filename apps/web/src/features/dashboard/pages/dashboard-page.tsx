import { Card, Col, Descriptions, Row, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHasPerm } from '../../../components/has-perm.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { useDashboard } from '../api/get-dashboard.ts';
import { FundsCards } from '../components/funds-cards.tsx';
import { PayoutApprovalCard } from '../components/payout-approval-card.tsx';
import { TodayCard } from '../components/today-card.tsx';
import { TodayRefundsCard } from '../components/today-refunds-card.tsx';
import { TrendsCard } from '../components/trends-card.tsx';
import type { Currency } from '@paydesk/shared/money.ts';

export default function DashboardPage() {
  const { t } = useTranslation(['dashboard', 'routes']);
  const user = useCurrentUser();
  const dashboard = useDashboard();
  // The server leaves `collection` (`payout`) out (null) for users without collection:view (payout:view);
  // until it answers, the permission says whether a card is coming.
  const canViewCollection = useHasPerm('collection:view');
  const canViewPayout = useHasPerm('payout:view');
  const shows = (figures: 'collection' | 'payout', canView: boolean) =>
    dashboard.data ? dashboard.data[figures] !== null : canView && !dashboard.isError;
  const showsCollection = shows('collection', canViewCollection);
  const showsPayout = shows('payout', canViewPayout);
  return (
    <PageContainer title={t('routes:dashboard')}>
      <Card style={{ marginBottom: 16 }}>
        <Descriptions
          title={t('welcome', { name: user?.name ?? '' })}
          column={{ xs: 1, sm: 2, lg: 4 }}
          size="small"
          items={[
            { key: 'merchant', label: t('merchant'), children: user?.merchant.name },
            { key: 'merchantNo', label: t('merchantNo'), children: user?.merchant.no },
            { key: 'currency', label: t('currency'), children: user?.merchant.currency },
            {
              key: 'roles',
              label: t('roles'),
              children: user?.roles.map((role) => (
                <Tag key={role}>{t(`roleNames.${role}`, { defaultValue: role })}</Tag>
              )),
            },
          ]}
        />
      </Card>
      <div style={{ marginBottom: 16 }}>
        <FundsCards />
      </div>
      <Row gutter={[16, 16]}>
        {showsCollection && (
          <Col xs={24} lg={12}>
            <TodayCard
              kind="collection"
              today={dashboard.data?.today}
              figures={dashboard.data?.collection ?? undefined}
            />
            {/* Today's refunds of collections, for the same users (null for the others). */}
            {dashboard.data?.refunds && (
              <div style={{ marginTop: 16 }}>
                <TodayRefundsCard today={dashboard.data.today} figures={dashboard.data.refunds} />
              </div>
            )}
          </Col>
        )}
        {showsPayout && (
          <Col xs={24} lg={12}>
            <TodayCard
              kind="payout"
              today={dashboard.data?.today}
              figures={dashboard.data?.payout ?? undefined}
            />
            {/* Payouts waiting for a second user's approval (DESIGN 16), for the same users. */}
            {dashboard.data?.payout_approval && (
              <div style={{ marginTop: 16 }}>
                <PayoutApprovalCard figures={dashboard.data.payout_approval} />
              </div>
            )}
          </Col>
        )}
      </Row>
      {(showsCollection || showsPayout) && (
        <div style={{ marginTop: 16 }}>
          <TrendsCard
            series={dashboard.data?.series}
            currency={(user?.merchant.currency ?? 'CNY') as Currency}
          />
        </div>
      )}
    </PageContainer>
  );
}
