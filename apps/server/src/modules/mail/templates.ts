import type { Locale } from '@paydesk/shared/notifications/notifications.schemas.ts';
import { groupDecimal } from '@paydesk/shared/money.ts';

// Every mail Paydesk sends (DESIGN 16), in the three languages of the console. A template says what the
// mail says once per language, as paragraphs, facts and at most one link; renderMail makes its plain text
// and its HTML from that one content, escaping every parameter in the HTML.

/** One template's parameters: strings, as they are shown (an ISO time is shown in UTC). */
type Params<K extends string> = Record<K, string>;

/**
 * A notification's link to the console page where the merchant acts on it (built by the notifications
 * module from PUBLIC_URL or the request's address); without it the mail has no button.
 */
type Linked = { link?: string };

/** Who did it and when, on every notification of a merchant's change. */
type Change = 'merchant' | 'actor' | 'at';

export type MailTemplateParams = {
  /** An invitation to join a merchant's team: `link` sets a password, valid until `expires_at` (ISO). */
  invitation: Params<'link' | 'merchant' | 'inviter' | 'role' | 'expires_at'>;
  /** `mode`: live or test, the key that changed. */
  access_key_regenerated: Params<Change | 'mode'> & Linked;
  /** `url`: the new notify URL ('' when removed). */
  notify_url_changed: Params<Change | 'mode' | 'url'> & Linked;
  /** `ips`: the whitelist now, comma separated ('' when empty). */
  ip_whitelist_changed: Params<Change | 'ips'> & Linked;
  /** `user`: whose payment password was reset. */
  payment_password_reset: Params<Change | 'user'> & Linked;
  /** `user`: whose two-factor authentication was turned off. */
  two_factor_disabled: Params<Change | 'user'> & Linked;
  /** `email` invited as `role`. */
  user_invited: Params<Change | 'email' | 'role'> & Linked;
  /** `user`: who was disabled. */
  user_disabled: Params<Change | 'user'> & Linked;
  /** A ROOT user (`user`) signed in from an address (`ip`) not seen for them before. */
  root_sign_in_new_ip: Params<'merchant' | 'user' | 'ip' | 'at'> & Linked;
  /** A payout of `amount` `currency` by `actor` waits for another user's approval. */
  payout_pending_approval: Params<Change | 'payout_no' | 'amount' | 'currency'> & Linked;
};
export type MailTemplate = keyof MailTemplateParams;

/** What one mail says in one language. */
export type MailContent = {
  subject: string;
  paragraphs: string[];
  /** Label and value rows (who, what, when). */
  facts?: Array<[string, string]>;
  action?: { label: string; url: string };
};

type Wording<P> = Record<Locale, (p: P) => MailContent>;

/** "2026-11-29 04:30 UTC" from an ISO time; anything else as given. */
export function shownTime(value: string): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const FOOTER: Record<Locale, string> = {
  en: 'If this was not expected, sign in to Paydesk and review your security settings.',
  'zh-cn': '如非预期操作，请登录 Paydesk 检查安全设置。',
  vi: 'Nếu đây không phải thao tác của bạn, hãy đăng nhập Paydesk và kiểm tra cài đặt bảo mật.',
};

const LABELS = {
  merchant: { en: 'Merchant', 'zh-cn': '商户', vi: 'Thương nhân' },
  actor: { en: 'By', 'zh-cn': '操作人', vi: 'Người thực hiện' },
  at: { en: 'Time', 'zh-cn': '时间', vi: 'Thời gian' },
  mode: { en: 'Mode', 'zh-cn': '模式', vi: 'Chế độ' },
  user: { en: 'User', 'zh-cn': '用户', vi: 'Người dùng' },
  ip: { en: 'IP address', 'zh-cn': 'IP 地址', vi: 'Địa chỉ IP' },
  role: { en: 'Role', 'zh-cn': '角色', vi: 'Vai trò' },
  email: { en: 'Email', 'zh-cn': '邮箱', vi: 'Email' },
  url: { en: 'Notify URL', 'zh-cn': '回调地址', vi: 'URL thông báo' },
  ips: { en: 'IP whitelist', 'zh-cn': 'IP 白名单', vi: 'Danh sách IP' },
  payout: { en: 'Payout', 'zh-cn': '代付单号', vi: 'Lệnh chi' },
  amount: { en: 'Amount', 'zh-cn': '金额', vi: 'Số tiền' },
  expires: { en: 'Valid until', 'zh-cn': '有效期至', vi: 'Hiệu lực đến' },
} as const;

const NONE: Record<Locale, string> = { en: '(none)', 'zh-cn': '（无）', vi: '(không có)' };
const MODES: Record<string, Record<Locale, string>> = {
  live: { en: 'Live', 'zh-cn': '正式', vi: 'Thật' },
  test: { en: 'Test', 'zh-cn': '测试', vi: 'Thử nghiệm' },
};

/** The facts every change shows, after the type's own. */
const changeFacts = (l: Locale, p: Params<Change>, ...own: Array<[keyof typeof LABELS, string]>) =>
  [
    ...own.map(([label, value]): [string, string] => [LABELS[label][l], value]),
    [LABELS.merchant[l], p.merchant],
    [LABELS.actor[l], p.actor],
    [LABELS.at[l], shownTime(p.at)],
  ] as Array<[string, string]>;

/** A notification: its subject and first line per language, the facts of the change, the footer. */
function notice<P extends Params<Change>>(
  words: Record<Locale, { subject: (p: P) => string; line: (p: P) => string }>,
  facts: (l: Locale, p: P) => Array<[keyof typeof LABELS, string]> = () => [],
): Wording<P> {
  const one =
    (l: Locale) =>
    (p: P): MailContent => ({
      subject: words[l].subject(p),
      paragraphs: [words[l].line(p), FOOTER[l]],
      facts: changeFacts(l, p, ...facts(l, p)),
    });
  return { en: one('en'), 'zh-cn': one('zh-cn'), vi: one('vi') };
}

/** Where a notification's link goes, in the words of its button. */
const OPEN = (page: Record<Locale, string>): Record<Locale, string> => ({
  en: `Open ${page.en} in Paydesk`,
  'zh-cn': `前往 Paydesk ${page['zh-cn']}`,
  vi: `Mở ${page.vi} trên Paydesk`,
});
const ACTIONS = {
  accessKey: OPEN({ en: 'Access key', 'zh-cn': '接口密钥', vi: 'Khóa truy cập' }),
  ipWhitelist: OPEN({ en: 'IP whitelist', 'zh-cn': 'IP 白名单', vi: 'Danh sách IP được phép' }),
  security: OPEN({ en: 'Security', 'zh-cn': '账户安全', vi: 'Bảo mật' }),
  team: OPEN({ en: 'Team', 'zh-cn': '团队成员', vi: 'Thành viên' }),
  payout: { en: 'Review the payout', 'zh-cn': '查看并审批代付', vi: 'Xem và duyệt lệnh chi' },
} satisfies Record<string, Record<Locale, string>>;

/** The notification's button to the console, when it has a link. */
function withAction<P extends Linked>(wording: Wording<P>, label: Record<Locale, string>): Wording<P> {
  const one =
    (l: Locale) =>
    (p: P): MailContent => {
      const content = wording[l](p);
      return p.link ? { ...content, action: { label: label[l], url: p.link } } : content;
    };
  return { en: one('en'), 'zh-cn': one('zh-cn'), vi: one('vi') };
}

const WORDS: { [K in MailTemplate]: Wording<MailTemplateParams[K]> } = {
  invitation: {
    en: (p) => ({
      subject: `${p.inviter} invited you to ${p.merchant} on Paydesk`,
      paragraphs: [
        `${p.inviter} invited you to join ${p.merchant} on Paydesk as ${p.role}.`,
        `Set your password with the link below. It can be used once, until ${shownTime(p.expires_at)}.`,
        'If you did not expect this invitation, ignore this email.',
      ],
      facts: [
        [LABELS.merchant.en, p.merchant],
        [LABELS.role.en, p.role],
        [LABELS.expires.en, shownTime(p.expires_at)],
      ],
      action: { label: 'Accept the invitation', url: p.link },
    }),
    'zh-cn': (p) => ({
      subject: `${p.inviter} 邀请您加入 Paydesk 商户 ${p.merchant}`,
      paragraphs: [
        `${p.inviter} 邀请您以 ${p.role} 角色加入 Paydesk 商户 ${p.merchant}。`,
        `请通过下方链接设置密码。链接仅可使用一次，有效期至 ${shownTime(p.expires_at)}。`,
        '如果您没有预期收到此邀请，请忽略本邮件。',
      ],
      facts: [
        [LABELS.merchant['zh-cn'], p.merchant],
        [LABELS.role['zh-cn'], p.role],
        [LABELS.expires['zh-cn'], shownTime(p.expires_at)],
      ],
      action: { label: '接受邀请', url: p.link },
    }),
    vi: (p) => ({
      subject: `${p.inviter} mời bạn tham gia ${p.merchant} trên Paydesk`,
      paragraphs: [
        `${p.inviter} mời bạn tham gia ${p.merchant} trên Paydesk với vai trò ${p.role}.`,
        `Hãy đặt mật khẩu bằng liên kết bên dưới. Liên kết chỉ dùng được một lần, đến ${shownTime(p.expires_at)}.`,
        'Nếu bạn không mong đợi lời mời này, hãy bỏ qua email này.',
      ],
      facts: [
        [LABELS.merchant.vi, p.merchant],
        [LABELS.role.vi, p.role],
        [LABELS.expires.vi, shownTime(p.expires_at)],
      ],
      action: { label: 'Chấp nhận lời mời', url: p.link },
    }),
  },
  access_key_regenerated: notice(
    {
      en: {
        subject: () => 'Your access key was regenerated',
        line: (p) => `${p.actor} regenerated the access key of ${p.merchant}. The old key no longer works.`,
      },
      'zh-cn': {
        subject: () => '您的接入密钥已重新生成',
        line: (p) => `${p.actor} 重新生成了商户 ${p.merchant} 的接入密钥，旧密钥已失效。`,
      },
      vi: {
        subject: () => 'Khóa truy cập của bạn đã được tạo lại',
        line: (p) => `${p.actor} đã tạo lại khóa truy cập của ${p.merchant}. Khóa cũ không còn dùng được.`,
      },
    },
    (l, p) => [['mode', MODES[p.mode]?.[l] ?? p.mode]],
  ),
  notify_url_changed: notice(
    {
      en: {
        subject: () => 'Your notify URL was changed',
        line: (p) => `${p.actor} changed the notify URL of ${p.merchant}.`,
      },
      'zh-cn': {
        subject: () => '您的回调地址已修改',
        line: (p) => `${p.actor} 修改了商户 ${p.merchant} 的回调地址。`,
      },
      vi: {
        subject: () => 'URL thông báo của bạn đã được thay đổi',
        line: (p) => `${p.actor} đã thay đổi URL thông báo của ${p.merchant}.`,
      },
    },
    (l, p) => [
      ['url', p.url || NONE[l]],
      ['mode', MODES[p.mode]?.[l] ?? p.mode],
    ],
  ),
  ip_whitelist_changed: notice(
    {
      en: {
        subject: () => 'Your IP whitelist was changed',
        line: (p) => `${p.actor} changed the IP whitelist of ${p.merchant}.`,
      },
      'zh-cn': {
        subject: () => '您的 IP 白名单已修改',
        line: (p) => `${p.actor} 修改了商户 ${p.merchant} 的 IP 白名单。`,
      },
      vi: {
        subject: () => 'Danh sách IP của bạn đã được thay đổi',
        line: (p) => `${p.actor} đã thay đổi danh sách IP được phép của ${p.merchant}.`,
      },
    },
    (l, p) => [['ips', p.ips || NONE[l]]],
  ),
  payment_password_reset: notice(
    {
      en: {
        subject: () => 'A payment password was reset',
        line: (p) => `The payment password of ${p.user} was reset.`,
      },
      'zh-cn': { subject: () => '支付密码已重置', line: (p) => `${p.user} 的支付密码已被重置。` },
      vi: {
        subject: () => 'Mật khẩu thanh toán đã được đặt lại',
        line: (p) => `Mật khẩu thanh toán của ${p.user} đã được đặt lại.`,
      },
    },
    (_l, p) => [['user', p.user]],
  ),
  two_factor_disabled: notice(
    {
      en: {
        subject: () => 'Two-factor authentication was turned off',
        line: (p) => `Two-factor authentication of ${p.user} was turned off.`,
      },
      'zh-cn': { subject: () => '双重验证已关闭', line: (p) => `${p.user} 的双重验证已被关闭。` },
      vi: {
        subject: () => 'Xác thực hai lớp đã bị tắt',
        line: (p) => `Xác thực hai lớp của ${p.user} đã bị tắt.`,
      },
    },
    (_l, p) => [['user', p.user]],
  ),
  user_invited: notice(
    {
      en: {
        subject: (p) => `${p.email} was invited to your team`,
        line: (p) => `${p.actor} invited ${p.email} to ${p.merchant} as ${p.role}.`,
      },
      'zh-cn': {
        subject: (p) => `${p.email} 已被邀请加入您的团队`,
        line: (p) => `${p.actor} 邀请 ${p.email} 以 ${p.role} 角色加入商户 ${p.merchant}。`,
      },
      vi: {
        subject: (p) => `${p.email} đã được mời vào nhóm của bạn`,
        line: (p) => `${p.actor} đã mời ${p.email} tham gia ${p.merchant} với vai trò ${p.role}.`,
      },
    },
    (_l, p) => [
      ['email', p.email],
      ['role', p.role],
    ],
  ),
  user_disabled: notice(
    {
      en: {
        subject: (p) => `${p.user} was disabled`,
        line: (p) => `${p.actor} disabled ${p.user}. Their sessions have ended.`,
      },
      'zh-cn': {
        subject: (p) => `${p.user} 已被停用`,
        line: (p) => `${p.actor} 停用了用户 ${p.user}，其登录会话已全部结束。`,
      },
      vi: {
        subject: (p) => `${p.user} đã bị vô hiệu hóa`,
        line: (p) => `${p.actor} đã vô hiệu hóa ${p.user}. Các phiên đăng nhập của họ đã kết thúc.`,
      },
    },
    (_l, p) => [['user', p.user]],
  ),
  root_sign_in_new_ip: {
    en: (p) => ({
      subject: 'A sign-in from a new IP address',
      paragraphs: [
        `${p.user} signed in to ${p.merchant} from ${p.ip}, an address not used before.`,
        FOOTER.en,
      ],
      facts: [
        [LABELS.user.en, p.user],
        [LABELS.ip.en, p.ip],
        [LABELS.merchant.en, p.merchant],
        [LABELS.at.en, shownTime(p.at)],
      ],
    }),
    'zh-cn': (p) => ({
      subject: '新 IP 地址登录提醒',
      paragraphs: [`${p.user} 从新的 IP 地址 ${p.ip} 登录了商户 ${p.merchant}。`, FOOTER['zh-cn']],
      facts: [
        [LABELS.user['zh-cn'], p.user],
        [LABELS.ip['zh-cn'], p.ip],
        [LABELS.merchant['zh-cn'], p.merchant],
        [LABELS.at['zh-cn'], shownTime(p.at)],
      ],
    }),
    vi: (p) => ({
      subject: 'Đăng nhập từ địa chỉ IP mới',
      paragraphs: [
        `${p.user} đã đăng nhập vào ${p.merchant} từ ${p.ip}, một địa chỉ chưa dùng trước đây.`,
        FOOTER.vi,
      ],
      facts: [
        [LABELS.user.vi, p.user],
        [LABELS.ip.vi, p.ip],
        [LABELS.merchant.vi, p.merchant],
        [LABELS.at.vi, shownTime(p.at)],
      ],
    }),
  },
  payout_pending_approval: notice(
    {
      en: {
        subject: (p) => `Payout ${p.payout_no} waits for approval`,
        line: (p) =>
          `${p.actor} created payout ${p.payout_no} of ${groupDecimal(p.amount)} ${p.currency}. It waits for another user's approval.`,
      },
      'zh-cn': {
        subject: (p) => `代付 ${p.payout_no} 待审批`,
        line: (p) =>
          `${p.actor} 创建了代付 ${p.payout_no}，金额 ${groupDecimal(p.amount)} ${p.currency}，等待其他用户审批。`,
      },
      vi: {
        subject: (p) => `Lệnh chi ${p.payout_no} đang chờ duyệt`,
        line: (p) =>
          `${p.actor} đã tạo lệnh chi ${p.payout_no} số tiền ${groupDecimal(p.amount)} ${p.currency}, đang chờ người dùng khác duyệt.`,
      },
    },
    (_l, p) => [
      ['payout', p.payout_no],
      ['amount', `${groupDecimal(p.amount)} ${p.currency}`],
    ],
  ),
};

/** Every template; a notification with a link gets a button to the console page where the merchant acts. */
export const MAIL_TEMPLATES: { [K in MailTemplate]: Wording<MailTemplateParams[K]> } = {
  invitation: WORDS.invitation,
  access_key_regenerated: withAction(WORDS.access_key_regenerated, ACTIONS.accessKey),
  notify_url_changed: withAction(WORDS.notify_url_changed, ACTIONS.accessKey),
  ip_whitelist_changed: withAction(WORDS.ip_whitelist_changed, ACTIONS.ipWhitelist),
  payment_password_reset: withAction(WORDS.payment_password_reset, ACTIONS.security),
  two_factor_disabled: withAction(WORDS.two_factor_disabled, ACTIONS.security),
  user_invited: withAction(WORDS.user_invited, ACTIONS.team),
  user_disabled: withAction(WORDS.user_disabled, ACTIONS.team),
  root_sign_in_new_ip: withAction(WORDS.root_sign_in_new_ip, ACTIONS.security),
  payout_pending_approval: withAction(WORDS.payout_pending_approval, ACTIONS.payout),
};
