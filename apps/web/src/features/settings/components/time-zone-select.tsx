import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { browserTimeZone } from '../../../lib/date-time.ts';

// Offsets in use somewhere in the world, from -12:00 to +14:00.
const OFFSETS = [
  '-12:00',
  '-11:00',
  '-10:00',
  '-09:30',
  '-09:00',
  '-08:00',
  '-07:00',
  '-06:00',
  '-05:00',
  '-04:00',
  '-03:30',
  '-03:00',
  '-02:00',
  '-01:00',
  '+00:00',
  '+01:00',
  '+02:00',
  '+03:00',
  '+03:30',
  '+04:00',
  '+04:30',
  '+05:00',
  '+05:30',
  '+05:45',
  '+06:00',
  '+06:30',
  '+07:00',
  '+08:00',
  '+08:45',
  '+09:00',
  '+09:30',
  '+10:00',
  '+10:30',
  '+11:00',
  '+12:00',
  '+12:45',
  '+13:00',
  '+14:00',
];

const regionNames = (): string[] => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC', 'Asia/Shanghai', 'Asia/Ho_Chi_Minh', 'Asia/Kolkata', 'America/Sao_Paulo'];
  }
};

/** A UTC offset or a region's time zone; empty means "follow the browser". */
export function TimeZoneSelect({
  value,
  onChange,
  id,
}: {
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
}) {
  const { t } = useTranslation('security');
  const options = useMemo(() => {
    const regions = regionNames();
    const known = new Set([...OFFSETS, ...regions]);
    return [
      {
        value: '',
        label: t('profile.browserZone', { zone: browserTimeZone() }),
      },
      ...(value && !known.has(value) ? [{ value, label: value }] : []),
      {
        label: t('profile.offsets'),
        title: 'offsets',
        options: OFFSETS.map((offset) => ({
          value: offset,
          label: `UTC${offset}`,
        })),
      },
      {
        label: t('profile.regions'),
        title: 'regions',
        options: regions.map((zone) => ({
          value: zone,
          label: zone.replace(/_/g, ' '),
        })),
      },
    ];
  }, [t, value]);

  return (
    <Select
      id={id}
      showSearch={{ optionFilterProp: 'label' }}
      value={value ?? ''}
      onChange={onChange}
      options={options}
      style={{ width: '100%' }}
    />
  );
}
