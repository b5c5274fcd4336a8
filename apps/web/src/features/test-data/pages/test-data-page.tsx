import { DeleteOutlined, ExperimentOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Badge,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  Row,
  Skeleton,
  Space,
  Statistic,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountError, type Currency, toMinor } from '@paydesk/shared/money.ts';
import { testFundsLimit } from '@paydesk/shared/modes/modes.schemas.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { formatMoney } from '../../../components/money-text.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';
import { isHttpError } from '../../../lib/http.ts';
import { setMode, useMode } from '../../../stores/mode.ts';
import { useBalance } from '../../funds/index.ts';
import { useAddTestFunds } from '../api/add-test-funds.ts';
import { useDeleteTestData } from '../api/delete-test-data.ts';
import { type TestDataDeletion, useTestDataDeletion } from '../api/get-test-data-deletion.ts';

type AmountIssue = 'required' | 'tooLarge';

function amountIssueOf(value: string | undefined, currency: Currency): AmountIssue | undefined {
  try {
    const minor = toMinor(value?.trim() ?? '', currency);
    if (minor <= 0n) return 'required';
    return minor > toMinor(testFundsLimit(currency), currency) ? 'tooLarge' : undefined;
  } catch (error) {
    if (error instanceof AmountError) return 'required';
    throw error;
  }
}

/** The test balance and "Add test funds" (test mode only: the server adds test funds in test mode alone). */
function TestFundsCard({ currency }: { currency: Currency }) {
  const { t } = useTranslation('modes');
  const { message } = App.useApp();
  const isTest = useMode() === 'test';
  const balance = useBalance({ enabled: isTest });
  const addFunds = useAddTestFunds();
  const [form] = Form.useForm<{ amount: string }>();

  if (!isTest) {
    return (
      <Card title={t('testData.funds.title')} style={{ height: '100%' }}>
        <Alert
          type="info"
          showIcon
          title={t('testData.funds.liveMode')}
          action={
            <Button size="small" icon={<ExperimentOutlined />} onClick={() => setMode('test')}>
              {t('testData.funds.switchToTest')}
            </Button>
          }
        />
      </Card>
    );
  }

  const submit = async ({ amount }: { amount: string }) => {
    try {
      const after = await addFunds.mutateAsync({ amount: amount.trim() });
      form.resetFields();
      message.success(t('testData.funds.added', { available: formatMoney(after.available, currency) }));
    } catch (error) {
      if (isHttpError(error)) form.setFields(error.formErrors('amount'));
    }
  };

  return (
    <Card title={t('testData.funds.title')} style={{ height: '100%' }} data-testid="test-funds">
      <Typography.Text type="secondary" strong>
        {t('testData.balance.title')}
      </Typography.Text>
      {balance.data ? (
        <Row gutter={16} style={{ margin: '8px 0 24px' }} data-testid="test-balance">
          <Col span={12}>
            <Statistic
              title={t('testData.balance.available')}
              value={formatMoney(balance.data.available, currency)}
              suffix={currency}
            />
          </Col>
          <Col span={12}>
            <Statistic
              title={t('testData.balance.locked')}
              value={formatMoney(balance.data.locked, currency)}
              suffix={currency}
            />
          </Col>
        </Row>
      ) : (
        <Skeleton active paragraph={{ rows: 1 }} />
      )}
      <Typography.Paragraph type="secondary">
        {t('testData.funds.hint', { currency, max: formatMoney(testFundsLimit(currency), currency) })}
      </Typography.Paragraph>
      <Form form={form} layout="inline" onFinish={submit} requiredMark={false}>
        <Form.Item
          name="amount"
          label={t('testData.funds.amount')}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const issue = amountIssueOf(value, currency);
                if (issue === 'required') throw new Error(t('testData.funds.amountRequired'));
                if (issue === 'tooLarge')
                  throw new Error(
                    t('testData.funds.amountTooLarge', {
                      max: formatMoney(testFundsLimit(currency), currency),
                    }),
                  );
              },
            },
          ]}
          style={{ flex: 1, minWidth: 200 }}
        >
          <Input inputMode="decimal" autoComplete="off" suffix={currency} maxLength={22} />
        </Form.Item>
        <Form.Item style={{ marginInlineEnd: 0 }}>
          <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={addFunds.isPending}>
            {t('testData.funds.submit')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}

const STATUS_BADGE = { idle: 'default', queued: 'processing', running: 'processing' } as const;

/**
 * "Delete all test data": a confirmation that says what goes and that live data stays, then the job; its
 * status is polled until it is idle again, and then every cached answer is read afresh.
 */
function DeleteTestDataCard() {
  const { t } = useTranslation('modes');
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const deletion = useTestDataDeletion();
  const deleteData = useDeleteTestData();
  const [refusal, setRefusal] = useState<string | null>(null);
  const status = deletion.data?.status;
  const isBusy = status === 'queued' || status === 'running';

  // A job that was queued or running and is idle now has finished: what the console holds of test mode is gone.
  const previous = useRef<TestDataDeletion['status'] | undefined>(undefined);
  useEffect(() => {
    const wasBusy = previous.current === 'queued' || previous.current === 'running';
    previous.current = status;
    if (wasBusy && status === 'idle') {
      message.success(t('testData.delete.done'));
      void queryClient.invalidateQueries();
    }
  }, [status, message, queryClient, t]);

  const confirm = () =>
    modal.confirm({
      title: t('testData.delete.confirmTitle'),
      width: 520,
      content: (
        <div data-testid="delete-test-data-confirm">
          <Typography.Paragraph>{t('testData.delete.confirmWhat')}</Typography.Paragraph>
          <ul style={{ paddingInlineStart: 20 }}>
            {(['orders', 'callbacks', 'funds', 'exports', 'reports'] as const).map((item) => (
              <li key={item}>{t(`testData.delete.items.${item}`)}</li>
            ))}
          </ul>
          <Alert type="success" showIcon title={t('testData.delete.confirmLive')} />
        </div>
      ),
      okText: t('testData.delete.confirmOk'),
      okButtonProps: { danger: true },
      cancelText: t('testData.delete.cancel'),
      onOk: async () => {
        setRefusal(null);
        try {
          await deleteData.mutateAsync();
          message.info(t('testData.delete.queued'));
        } catch (error) {
          // 409 test_data_busy: a test export is running; its text stays under the button.
          if (isHttpError(error) && !error.isShown) setRefusal(error.message);
        }
      },
    });

  return (
    <Card title={t('testData.delete.title')} style={{ height: '100%' }} data-testid="delete-test-data">
      <Typography.Paragraph type="secondary">{t('testData.delete.hint')}</Typography.Paragraph>
      {deletion.data ? (
        <Descriptions
          column={1}
          size="small"
          style={{ marginBottom: 16 }}
          items={[
            {
              key: 'status',
              label: t('testData.delete.status.label'),
              children: (
                <Badge
                  status={STATUS_BADGE[deletion.data.status]}
                  text={t(`testData.delete.status.${deletion.data.status}`)}
                  data-testid="deletion-status"
                />
              ),
            },
            {
              key: 'requestedAt',
              label: t('testData.delete.requestedAt'),
              children: deletion.data.requested_at ? (
                <DateTime value={deletion.data.requested_at} />
              ) : (
                t('testData.delete.never')
              ),
            },
            {
              key: 'finishedAt',
              label: t('testData.delete.finishedAt'),
              children: deletion.data.finished_at ? (
                <DateTime value={deletion.data.finished_at} />
              ) : (
                t('testData.delete.never')
              ),
            },
          ]}
        />
      ) : (
        <Skeleton active paragraph={{ rows: 2 }} />
      )}
      <Space direction="vertical" size={4}>
        <Button
          danger
          icon={<DeleteOutlined />}
          onClick={confirm}
          loading={isBusy || deleteData.isPending}
          disabled={!deletion.data}
          data-testid="delete-test-data-button"
        >
          {t('testData.delete.button')}
        </Button>
        {refusal && (
          <Typography.Text type="danger" data-testid="delete-test-data-refusal">
            {refusal}
          </Typography.Text>
        )}
      </Space>
    </Card>
  );
}

/**
 * Settings > Test data (ROOT, `test-data:manage`; the test mode band links here): test mode's own money
 * and the way to start it again from nothing (DESIGN 12).
 */
export default function TestDataPage() {
  const { t } = useTranslation(['modes', 'routes']);
  const currency = (useCurrentUser()?.merchant.currency ?? 'CNY') as Currency;
  return (
    <PageContainer title={t('routes:testData')}>
      <Typography.Paragraph type="secondary">{t('testData.intro')}</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <TestFundsCard currency={currency} />
        </Col>
        <Col xs={24} xl={12}>
          <DeleteTestDataCard />
        </Col>
      </Row>
    </PageContainer>
  );
}
