import { FontSizeOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { appSettings, setSize, SIZES, type ComponentSize } from '../stores/app-settings.ts';

export function SizeSwitch() {
  const { t } = useTranslation('layout');
  const size = appSettings.useSelector((s) => s.size);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZES.map((key) => ({ key, label: t(`navbar.sizes.${key}`) })),
        onClick: ({ key }) => setSize(key as ComponentSize),
      }}
    >
      <Button
        type="text"
        icon={<FontSizeOutlined />}
        aria-label={t('navbar.size')}
        data-testid="size-switch"
      />
    </Dropdown>
  );
}
