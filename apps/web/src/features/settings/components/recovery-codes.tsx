import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { App, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../lib/auth/get-current-user.ts';

/** Puts text on the clipboard; false where the browser refuses (no permission, insecure page). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function downloadText(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** The recovery codes, with copy and download as a text file. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation('security');
  const { message } = App.useApp();
  const email = useCurrentUser()?.email ?? '';

  const copy = async () => {
    if (await copyText(codes.join('\n'))) message.success(t('twoFactor.copied'));
    else message.error(t('twoFactor.copyFailed'));
  };
  const download = () => {
    const date = new Date().toISOString().slice(0, 10);
    const text = [
      t('twoFactor.recoveryFileTitle', { email }),
      t('twoFactor.recoveryFileHint', { date }),
      '',
      ...codes,
      '',
    ].join('\r\n');
    downloadText('paydesk-recovery-codes.txt', text);
  };

  return (
    <div className="recovery-codes">
      <ol className="recovery-codes__list" aria-label={t('twoFactor.recoveryTitle')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <Space wrap>
        <Button icon={<CopyOutlined />} onClick={copy}>
          {t('twoFactor.copy')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={download}>
          {t('twoFactor.download')}
        </Button>
      </Space>
    </div>
  );
}
