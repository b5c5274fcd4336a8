import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App as AntApp, Button, Card, ConfigProvider, Form, Input, Typography } from 'antd';

async function login(email: string, password: string): Promise<string | null> {
  await fetch('/api/csrf-cookie', { credentials: 'include' });
  const xsrf = decodeURIComponent(document.cookie.match(/(?:^|; )XSRF-TOKEN=([^;]*)/)?.[1] ?? '');
  const body = new FormData();
  body.set('email', email);
  body.set('password', password);
  const response = await fetch('/api/login', {
    method: 'POST',
    credentials: 'include',
    headers: { accept: 'application/json', 'x-xsrf-token': xsrf },
    body,
  });
  if (response.ok) return null;
  return ((await response.json()) as { message?: string }).message ?? 'System error';
}

function Root() {
  const [user, setUser] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (user) return <Typography.Title level={3}>Dashboard: {user}</Typography.Title>;
  return (
    <Card title="Paydesk" style={{ maxWidth: 400, margin: '120px auto' }}>
      <Form
        layout="vertical"
        onFinish={async (values: { username: string; password: string }) => {
          const failure = await login(values.username, values.password);
          if (failure) return setError(failure);
          const me = await fetch('/api/merchant/user', {
            credentials: 'include',
            headers: { accept: 'application/json' },
          });
          setUser(((await me.json()) as { data: { name: string } }).data.name);
        }}
      >
        <Form.Item name="username" label="Username" rules={[{ required: true }]}>
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item name="password" label="Password" rules={[{ required: true }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        {error && <Typography.Text type="danger">{error}</Typography.Text>}
        <Button type="primary" htmlType="submit" block>
          Log in
        </Button>
      </Form>
    </Card>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConfigProvider theme={{ token: { colorPrimary: '#409EFF' } }}>
      <AntApp>
        <Root />
      </AntApp>
    </ConfigProvider>
  </StrictMode>,
);
