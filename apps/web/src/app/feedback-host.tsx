import { App as AntApp } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { registerFeedback, TOAST_CONFIG } from '../lib/feedback.ts';
import { AntdConfig } from './antd-config.tsx';

function Bridge() {
  const { modal, message } = AntApp.useApp();
  useEffect(
    () =>
      registerFeedback({
        alert: ({ title, content, okText, kind, afterClose }) =>
          modal[kind]({ title, content, okText, afterClose, centered: true }),
        confirm: ({ title, content, okText, cancelText, onOk, afterClose }) =>
          modal.confirm({ title, content, okText, cancelText, onOk, afterClose, centered: true }),
        toast: (kind, content) => void message[kind](content),
      }),
    [modal, message],
  );
  return null;
}

/**
 * antd's App (themed message, modal and notification for App.useApp()) whose dialogs also serve the
 * HTTP client and the guard while it is mounted.
 */
export function FeedbackHost({ children }: { children?: ReactNode }) {
  return (
    <AntApp component={false} message={TOAST_CONFIG}>
      <Bridge />
      {children}
    </AntApp>
  );
}

/** The login and error pages' host, loaded the first time one of them shows a dialog or a toast. */
export default function StandaloneFeedbackHost() {
  return (
    <AntdConfig>
      <FeedbackHost />
    </AntdConfig>
  );
}
