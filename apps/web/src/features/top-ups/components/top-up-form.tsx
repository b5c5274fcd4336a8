import { CopyOutlined, UploadOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Flex,
  Form,
  Image,
  Input,
  QRCode,
  Radio,
  Select,
  Space,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ERROR_CODES } from '@paydesk/shared/errors.ts';
import { AmountSchema, convertDown, type Currency, fromMinor, toMinor } from '@paydesk/shared/money.ts';
import {
  TOP_UP_NETWORKS,
  type TopUpNetwork,
  SCREENSHOT_MAX_BYTES,
  SCREENSHOT_TYPES,
} from '@paydesk/shared/top-ups/top-ups.schemas.ts';
import { MONEY_FORM_LAYOUT } from '../../../components/money-form.tsx';
import { currencyUnit, formatMoney } from '../../../components/money-text.tsx';
import { isHttpError } from '../../../lib/http.ts';
import { useCreateTopUp } from '../api/create-top-up.ts';
import type { TopUpOptions } from '../api/get-top-up-options.ts';

type TopUpFormValues = {
  currency: 'USDT';
  network: TopUpNetwork;
  amount?: string;
  screenshot?: File;
};

const SCREENSHOT_CODES = new Set<string>([
  ERROR_CODES.screenshotRequired,
  ERROR_CODES.screenshotTooLarge,
  ERROR_CODES.screenshotType,
  ERROR_CODES.screenshotDimensions,
  ERROR_CODES.screenshotUnreadable,
  ERROR_CODES.payloadTooLarge,
  ERROR_CODES.unsupportedMediaType,
]);

const isPositiveAmount = (value: string) => AmountSchema.safeParse(value).success && /[1-9]/.test(value);

/** Picks one PNG or JPG and shows it before it is sent (a Form control: value + onChange). */
function ScreenshotPicker({ value, onChange }: { value?: File; onChange?: (file: File) => void }) {
  const { t } = useTranslation('top-ups');
  const preview = useMemo(() => (value ? URL.createObjectURL(value) : null), [value]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  return (
    <Space orientation="vertical">
      <Upload
        accept=".png,.jpg,.jpeg,image/png,image/jpeg"
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          onChange?.(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />}>{value ? t('form.replace') : t('form.choose')}</Button>
      </Upload>
      {value && (
        <Flex gap={12} align="center" data-testid="screenshot-preview">
          {preview && (
            <Image
              src={preview}
              alt={t('form.preview')}
              width={96}
              height={96}
              style={{ objectFit: 'cover', borderRadius: 4 }}
            />
          )}
          <Typography.Text type="secondary">
            {value.name} ({Math.ceil(value.size / 1024).toLocaleString('en-US')} KB)
          </Typography.Text>
        </Flex>
      )}
    </Space>
  );
}

/**
 * Top-up: USDT sent to the platform's deposit address of the chosen network (shown with a QR code and a copy
 * button), then the amount and the transfer's screenshot for an operator to check. The screenshot's type
 * and size are checked here too, before anything is sent.
 */
export function TopUpForm({ options }: { options: TopUpOptions }) {
  const { t } = useTranslation('top-ups');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<TopUpFormValues>();
  const create = useCreateTopUp();
  const network = Form.useWatch('network', form) ?? 'TRC20';
  const amount = Form.useWatch('amount', form);
  const address = options.networks.find((item) => item.network === network)?.address ?? '';
  const currency = options.merchant_currency as Currency;
  const estimate =
    amount && isPositiveAmount(amount.trim())
      ? formatMoney(
          // Display only: the formula the operator's approval uses (rounded down).
          fromMinor(convertDown(toMinor(amount.trim(), 'USDT'), 'USDT', options.rate, currency), currency),
          currency,
        )
      : null;

  const copy = async () => {
    await navigator.clipboard?.writeText(address);
    void message.success(t('form.copied'));
  };

  async function onFinish(values: TopUpFormValues) {
    try {
      const created = await create.mutateAsync({
        amount: values.amount!.trim(),
        currency: 'USDT',
        network: values.network,
        screenshot: values.screenshot!,
      });
      void message.success(t('form.submitted', { no: created.recharge_no }));
      await navigate('/recharge/record');
    } catch (error) {
      if (!isHttpError(error) || error.isShown) return;
      if (error.code && SCREENSHOT_CODES.has(error.code)) {
        form.setFields([{ name: 'screenshot', errors: [error.message] }]);
        return;
      }
      form.setFields(error.formErrors<keyof TopUpFormValues>('amount'));
    }
  }

  return (
    <Form<TopUpFormValues>
      form={form}
      name="top-up"
      aria-label={t('routes:topUp')}
      {...MONEY_FORM_LAYOUT}
      // A basis of 0: a long help text wraps inside the field instead of pushing it under its label.
      wrapperCol={{ flex: '1 1 0', style: { minWidth: 0 } }}
      initialValues={{ currency: 'USDT', network: 'TRC20' }}
      onFinish={onFinish}
      onFinishFailed={() => message.warning(t('form.incomplete'))}
    >
      <Typography.Paragraph type="secondary">{t('form.steps')}</Typography.Paragraph>
      <Form.Item name="currency" label={t('form.currency')} required>
        <Select options={[{ value: 'USDT', label: 'USDT' }]} style={{ width: 280 }} />
      </Form.Item>
      <Form.Item name="network" label={t('form.network')} required>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={TOP_UP_NETWORKS.map((value) => ({ value, label: value }))}
        />
      </Form.Item>
      <Form.Item label={t('form.address')} extra={t('form.addressHelp', { network })}>
        <Flex gap={16} align="flex-start" wrap>
          <QRCode value={address} size={148} bordered data-testid="deposit-qr" />
          <Flex vertical gap={8} style={{ minWidth: 0, flex: 1 }}>
            <Typography.Text code style={{ wordBreak: 'break-all' }} data-testid="deposit-address">
              {address}
            </Typography.Text>
            <div>
              <Button icon={<CopyOutlined />} onClick={() => void copy()}>
                {t('form.copy')}
              </Button>
            </div>
          </Flex>
        </Flex>
      </Form.Item>
      <Form.Item
        name="amount"
        label={t('form.amount')}
        required
        extra={
          <span data-testid="top-up-rate">
            {t('form.rateText', {
              rate: options.rate,
              currency: currencyUnit(currency),
              estimate: estimate ?? '-',
            })}
          </span>
        }
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              const text = value?.trim() ?? '';
              if (!text) throw new Error(t('rules.amount'));
              if (!isPositiveAmount(text)) throw new Error(t('rules.amountFormat'));
            },
          },
        ]}
      >
        <Input
          placeholder={t('form.amountPlaceholder')}
          suffix="USDT"
          inputMode="decimal"
          autoComplete="off"
          style={{ width: 280 }}
        />
      </Form.Item>
      <Form.Item
        name="screenshot"
        label={t('form.screenshot')}
        required
        extra={t('form.screenshotHelp')}
        rules={[
          {
            validator: async (_rule, file: File | undefined) => {
              if (!file) throw new Error(t('rules.screenshot'));
              if (!(SCREENSHOT_TYPES as readonly string[]).includes(file.type))
                throw new Error(t('rules.screenshotType'));
              if (file.size > SCREENSHOT_MAX_BYTES) throw new Error(t('rules.screenshotSize'));
            },
          },
        ]}
      >
        <ScreenshotPicker />
      </Form.Item>
      <Form.Item label=" ">
        <Button type="primary" htmlType="submit" loading={create.isPending}>
          {t('form.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
