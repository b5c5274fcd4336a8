// Every text of the sandbox checkout page (DESIGN section 6), one dictionary per language. The English one
// defines the keys; the others are typed against it, and a test checks that none is missing or empty.

export const PAY_PAGE_LANGUAGES = ['zh-cn', 'en', 'vi'] as const;
export type PayPageLanguage = (typeof PAY_PAGE_LANGUAGES)[number];

const en = {
  title: 'Sandbox checkout',
  sandboxBanner: 'Sandbox — test payment, no real money moves',
  sandboxNote:
    'Choose Pay or Fail to play the payer. The merchant gets the same callback as from a real payment channel.',
  merchant: 'Merchant',
  merchantNo: 'Merchant No.',
  amount: 'Amount',
  tradeNo: 'Order No.',
  outTradeNo: 'Merchant order No.',
  timeLeft: 'Time left',
  expiresAt: 'Expires at',
  pay: 'Pay',
  fail: 'Fail',
  paidTitle: 'Paid',
  paidBody: 'The payment went through. The merchant is being notified.',
  failedTitle: 'Payment failed',
  failedBody: 'The payment did not go through. No money was taken.',
  closedTitle: 'Order closed',
  closedBody: 'This order was closed and can no longer be paid.',
  expiredTitle: 'Expired',
  expiredBody: 'The time to pay this order has run out. Ask the merchant for a new order.',
  returnToMerchant: 'Return to merchant',
  language: 'Language',
};

export type PayPageTexts = { [Key in keyof typeof en]: string };

const zhCn: PayPageTexts = {
  title: '沙箱收银台',
  sandboxBanner: '沙箱 — 测试支付，不会产生真实资金流动',
  sandboxNote: '点击“支付”或“失败”模拟付款人的操作。商户会收到与真实支付通道相同的回调通知。',
  merchant: '商户',
  merchantNo: '商户号',
  amount: '支付金额',
  tradeNo: '平台订单号',
  outTradeNo: '商户订单号',
  timeLeft: '剩余支付时间',
  expiresAt: '过期时间',
  pay: '支付',
  fail: '失败',
  paidTitle: '支付成功',
  paidBody: '付款已完成，正在通知商户。',
  failedTitle: '支付失败',
  failedBody: '付款未成功，未扣除任何款项。',
  closedTitle: '订单已关闭',
  closedBody: '该订单已关闭，无法再支付。',
  expiredTitle: '订单已过期',
  expiredBody: '该订单的支付时间已过，请向商户重新下单。',
  returnToMerchant: '返回商户',
  language: '语言',
};

const vi: PayPageTexts = {
  title: 'Thanh toán thử nghiệm',
  sandboxBanner: 'Sandbox — thanh toán thử nghiệm, không có tiền thật được chuyển',
  sandboxNote:
    'Chọn Thanh toán hoặc Thất bại để đóng vai người trả tiền. Thương nhân nhận được thông báo giống như từ một kênh thanh toán thật.',
  merchant: 'Thương nhân',
  merchantNo: 'Mã thương nhân',
  amount: 'Số tiền thanh toán',
  tradeNo: 'Mã đơn hàng',
  outTradeNo: 'Mã đơn hàng của thương nhân',
  timeLeft: 'Thời gian còn lại',
  expiresAt: 'Hết hạn lúc',
  pay: 'Thanh toán',
  fail: 'Thất bại',
  paidTitle: 'Đã thanh toán',
  paidBody: 'Thanh toán thành công. Thương nhân đang được thông báo.',
  failedTitle: 'Thanh toán thất bại',
  failedBody: 'Thanh toán không thành công. Không có khoản tiền nào bị trừ.',
  closedTitle: 'Đơn hàng đã đóng',
  closedBody: 'Đơn hàng này đã đóng và không thể thanh toán được nữa.',
  expiredTitle: 'Đã hết hạn',
  expiredBody: 'Đã hết thời gian thanh toán đơn hàng này. Vui lòng yêu cầu thương nhân tạo đơn hàng mới.',
  returnToMerchant: 'Quay lại trang thương nhân',
  language: 'Ngôn ngữ',
};

export const PAY_PAGE_TEXTS: Record<PayPageLanguage, PayPageTexts> = { en, 'zh-cn': zhCn, vi };

/** Each language named in itself, as the language switcher shows it. */
export const PAY_PAGE_LANGUAGE_NAMES: Record<PayPageLanguage, string> = {
  'zh-cn': '简体中文',
  en: 'English',
  vi: 'Tiếng Việt',
};

/** The value of <html lang>. */
export const HTML_LANG: Record<PayPageLanguage, string> = { 'zh-cn': 'zh-CN', en: 'en', vi: 'vi' };
