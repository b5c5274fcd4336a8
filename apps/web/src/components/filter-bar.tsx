import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The filters above a list. Its fields show the filters of the URL; Search writes them back to the URL
 * (page 1), Reset clears them. `values` must be stable between renders (useUrlFilters' filters, or a
 * useMemo of them when the page converts dates for the form), or the form resets while the user types.
 */
export function FilterBar<Values extends Record<string, unknown>>({
  values,
  onSearch,
  onReset,
  children,
}: {
  values: Values;
  onSearch: (values: Values) => void;
  onReset: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(values as Parameters<typeof form.setFieldsValue>[0]);
  }, [form, values]);
  return (
    <Form
      form={form}
      layout="inline"
      className="filter-bar"
      onFinish={onSearch}
      style={{ rowGap: 12, marginBottom: 16 }}
    >
      {children}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('actions.search')}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              // The fields empty even when the URL has no filter to clear (nothing would reset them).
              form.resetFields();
              onReset();
            }}
          >
            {t('actions.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
