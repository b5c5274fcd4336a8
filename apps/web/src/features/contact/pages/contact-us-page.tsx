import {
  ClockCircleOutlined,
  CopyOutlined,
  MailOutlined,
  SendOutlined,
  WhatsAppOutlined,
} from '@ant-design/icons';
import { Alert, App, Button, Card, Col, Empty, Row, Skeleton, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactChannel } from '@paydesk/shared/contact/contact.schemas.ts';
import { PageContainer } from '../../../components/page-container.tsx';
import { resolveLanguage } from '../../../i18n/language.ts';
import { useContact } from '../api/get-contact.ts';

const ICONS: Record<ContactChannel['kind'], ReactNode> = {
  telegram: <SendOutlined style={{ color: '#229ED9' }} />,
  whatsapp: <WhatsAppOutlined style={{ color: '#25D366' }} />,
  email: <MailOutlined style={{ color: '#409EFF' }} />,
};

function ChannelCard({ channel }: { channel: ContactChannel }) {
  const { t } = useTranslation('contact');
  const { message } = App.useApp();
  const name = t(`channels.${channel.kind}`);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(channel.value);
      void message.success(t('copied', { value: channel.value }));
    } catch {
      void message.error(t('copyFailed'));
    }
  };
  return (
    <Card data-testid={`contact-${channel.kind}`} style={{ height: '100%' }}>
      <Space orientation="vertical" size={12} style={{ display: 'flex' }}>
        <Space size={12}>
          <span style={{ fontSize: 28, lineHeight: 1 }} aria-hidden>
            {ICONS[channel.kind]}
          </span>
          <div>
            <Typography.Title level={5} style={{ margin: 0 }}>
              {name}
            </Typography.Title>
            <Typography.Text type="secondary">{t(`hints.${channel.kind}`)}</Typography.Text>
          </div>
        </Space>
        <Typography.Text strong style={{ fontSize: 16 }} data-testid={`contact-${channel.kind}-value`}>
          {channel.value}
        </Typography.Text>
        <Space wrap>
          <Button icon={<CopyOutlined />} onClick={() => void copy()} aria-label={t('copyOf', { name })}>
            {t('copy')}
          </Button>
          <Button
            type="primary"
            href={channel.url}
            // A chat app or the mail program opens; the console stays where it is.
            target={channel.kind === 'email' ? undefined : '_blank'}
            rel="noopener noreferrer"
          >
            {t(`open.${channel.kind}`)}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}

/** Contact us: the support channels of the configuration, with copy buttons and links. */
export default function ContactUsPage() {
  const { t, i18n } = useTranslation(['contact', 'routes']);
  const language = resolveLanguage(i18n.language);
  const contact = useContact(language);

  let body: ReactNode;
  if (contact.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('contact:error')}
        action={
          <Button size="small" onClick={() => void contact.refetch()}>
            {t('contact:retry')}
          </Button>
        }
      />
    );
  } else if (!contact.data) {
    body = (
      <Row gutter={[16, 16]}>
        {[0, 1, 2].map((i) => (
          <Col xs={24} md={8} key={i}>
            <Card>
              <Skeleton active paragraph={{ rows: 2 }} />
            </Card>
          </Col>
        ))}
      </Row>
    );
  } else {
    const { channels, hours } = contact.data;
    body = (
      <>
        {channels.length === 0 ? (
          <Card>
            <Empty description={t('contact:none')} />
          </Card>
        ) : (
          <Row gutter={[16, 16]}>
            {channels.map((channel) => (
              <Col xs={24} md={8} key={channel.kind}>
                <ChannelCard channel={channel} />
              </Col>
            ))}
          </Row>
        )}
        {hours && (
          <Card style={{ marginTop: 16 }} data-testid="contact-hours">
            <Space size={12}>
              <ClockCircleOutlined style={{ fontSize: 20, color: '#909399' }} aria-hidden />
              <div>
                <Typography.Text type="secondary">{t('contact:hours')}</Typography.Text>
                <div>
                  <Typography.Text strong>{hours}</Typography.Text>
                </div>
              </div>
            </Space>
          </Card>
        )}
      </>
    );
  }

  return (
    <PageContainer title={t('routes:contactUs')}>
      <Typography.Paragraph type="secondary">{t('contact:intro')}</Typography.Paragraph>
      {body}
    </PageContainer>
  );
}
