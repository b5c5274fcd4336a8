// The console's dialogs and toasts, reachable from modules outside React (the HTTP client, the route
// guard). A mounted FeedbackHost (app/feedback-host.tsx) registers antd's dialogs here; tests register a
// fake. antd's dialog code is not part of the login route: it loads the first time something is shown.

export type AlertOptions = { title: string; content: string; okText: string; kind: 'warning' | 'error' };
export type ConfirmOptions = {
  title: string;
  content: string;
  okText: string;
  cancelText: string;
  onOk: () => void;
  /** Called once the dialog is gone, whichever button closed it. */
  afterClose: () => void;
};
export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export type Feedback = {
  alert(options: AlertOptions & { afterClose: () => void }): void;
  confirm(options: ConfirmOptions): void;
  toast(kind: ToastKind, content: string): void;
};

// The innermost mounted host wins (the layout's, else the stand-alone one of the login and error pages).
const hosts: Feedback[] = [];
let pending: ((feedback: Feedback) => void)[] = [];
let requestHost: () => void = () => {};

function flush() {
  const host = hosts.at(-1);
  if (!host) return;
  const waiting = pending;
  pending = [];
  waiting.forEach((show) => show(host));
}

/** Registers a host; the returned function unregisters it (when it unmounts). */
export function registerFeedback(feedback: Feedback): () => void {
  hosts.push(feedback);
  flush();
  return () => {
    const index = hosts.lastIndexOf(feedback);
    if (index !== -1) hosts.splice(index, 1);
  };
}

/** Called when something must be shown and no host is mounted: mount one. */
export const onFeedbackNeeded = (request: () => void): void => {
  requestHost = request;
};

const later = (show: (feedback: Feedback) => void) => {
  pending.push(show);
  requestHost();
};

const deferred: Feedback = {
  alert: (options) => later((f) => f.alert(options)),
  confirm: (options) => later((f) => f.confirm(options)),
  toast: (kind, content) => later((f) => f.toast(kind, content)),
};

export const feedback = (): Feedback => hosts.at(-1) ?? deferred;

/** For tests: a fake host in place of every other. */
export function setFeedback(fake: Feedback): void {
  hosts.length = 0;
  pending = [];
  hosts.push(fake);
}

// Toasts: 3000 ms, at the top, offset 16 (spec section 9).
export const TOAST_CONFIG = { top: 16, duration: 3 } as const;
