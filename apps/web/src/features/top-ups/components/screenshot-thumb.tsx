import { PictureOutlined } from '@ant-design/icons';
import { Image } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { screenshotUrl } from '../api/get-top-ups.ts';

/**
 * A top-up's screenshot, read from its endpoint (served to this merchant's users only, with the session
 * cookie); a click opens the full image.
 */
export function ScreenshotThumb({
  topUpNo,
  size = 40,
  whole = false,
}: {
  topUpNo: string;
  size?: number;
  /** The whole image at this width (the drawer) rather than a square crop (the list). */
  whole?: boolean;
}) {
  const { t } = useTranslation('top-ups');
  const [failed, setFailed] = useState(false);
  if (failed) return <PictureOutlined title={t('screenshotFailed')} aria-label={t('screenshotFailed')} />;
  return (
    <Image
      src={screenshotUrl(topUpNo)}
      alt={t('columns.screenshot')}
      width={size}
      height={whole ? undefined : size}
      style={{ objectFit: whole ? 'contain' : 'cover', borderRadius: 4 }}
      onError={() => setFailed(true)}
      data-testid="top-up-screenshot"
    />
  );
}
