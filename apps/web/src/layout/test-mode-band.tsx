import { ExperimentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useHasPerm } from '../components/has-perm.tsx';
import { setMode, useMode } from '../stores/mode.ts';

export const TEST_DATA_PATH = '/setting/test-data';

/**
 * The band above every page in test mode (DESIGN 12, as Stripe has it): no one takes test data for real
 * money, and the way to the test data and back to live mode is one click away.
 */
export function TestModeBand() {
  const { t } = useTranslation('modes');
  const isTest = useMode() === 'test';
  const canManage = useHasPerm('test-data:manage');
  if (!isTest) return null;
  return (
    <div className="test-mode-band" role="status" data-testid="test-mode-band">
      <span className="test-mode-band__label">
        <ExperimentOutlined /> {t('band.label')}
      </span>
      <span className="test-mode-band__text">{t('band.text')}</span>
      <span className="test-mode-band__actions">
        {canManage && <Link to={TEST_DATA_PATH}>{t('band.manage')}</Link>}
        <button type="button" className="test-mode-band__leave" onClick={() => setMode('live')}>
          {t('band.leave')}
        </button>
      </span>
    </div>
  );
}
