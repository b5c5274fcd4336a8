import { ExperimentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HasPerm } from '../components/has-perm.tsx';
import { setMode, useMode } from '../stores/mode.ts';

/**
 * The band above every page in test mode (DESIGN 12, as Stripe has it): no one takes test data for real
 * money, and the way back to live mode is one click away; a ROOT also finds Settings > Test data here.
 */
export function TestModeBand() {
  const { t } = useTranslation('modes');
  const isTest = useMode() === 'test';
  if (!isTest) return null;
  return (
    <div className="test-mode-band" role="status" data-testid="test-mode-band">
      <span className="test-mode-band__label">
        <ExperimentOutlined /> {t('band.label')}
      </span>
      <span className="test-mode-band__text">{t('band.text')}</span>
      <span className="test-mode-band__actions">
        <HasPerm perm="test-data:manage">
          <Link to="/setting/test-data">{t('band.manage')}</Link>
        </HasPerm>
        <button type="button" className="test-mode-band__leave" onClick={() => setMode('live')}>
          {t('band.leave')}
        </button>
      </span>
    </div>
  );
}
