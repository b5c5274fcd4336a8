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
  transferTitle: 'Pay by bank transfer',
  transferNote:
    'Transfer exactly this amount from your bank and write the reference exactly as shown. The order is paid when the bank confirms the transfer.',
  reference: 'Reference',
  qr_vietqr: 'Scan with your banking app (VietQR)',
  qr_pix: 'Scan with your bank app (Pix)',
  qr_upi: 'Scan with any UPI app',
  pixCopyPaste: 'Pix copy and paste',
  field_bank: 'Bank',
  field_branch: 'Branch',
  field_account_name: 'Account name',
  field_account_no: 'Account number',
  field_ifsc: 'IFSC',
  field_pix_key: 'Pix key',
  field_upi_id: 'UPI ID',
  testTransferBanner: 'Test mode — no real money: this order is paid only by a test notification',
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
  transferTitle: '银行转账付款',
  transferNote: '请通过您的银行转账准确的金额，并按所示内容填写附言。银行确认到账后订单即完成支付。',
  reference: '转账附言',
  qr_vietqr: '使用银行App扫码（VietQR）',
  qr_pix: '使用银行App扫码（Pix）',
  qr_upi: '使用任意UPI App扫码',
  pixCopyPaste: 'Pix 复制粘贴码',
  field_bank: '收款银行',
  field_branch: '开户支行',
  field_account_name: '收款户名',
  field_account_no: '收款账号',
  field_ifsc: 'IFSC 代码',
  field_pix_key: 'Pix 密钥',
  field_upi_id: 'UPI 账户',
  testTransferBanner: '测试模式 — 不涉及真实资金：该订单仅能由测试通知完成支付',
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
  transferTitle: 'Thanh toán bằng chuyển khoản',
  transferNote:
    'Chuyển khoản đúng số tiền này từ ngân hàng của bạn và ghi nội dung chuyển khoản chính xác như bên dưới. Đơn hàng được thanh toán khi ngân hàng xác nhận.',
  reference: 'Nội dung chuyển khoản',
  qr_vietqr: 'Quét bằng ứng dụng ngân hàng (VietQR)',
  qr_pix: 'Quét bằng ứng dụng ngân hàng (Pix)',
  qr_upi: 'Quét bằng bất kỳ ứng dụng UPI nào',
  pixCopyPaste: 'Mã Pix sao chép',
  field_bank: 'Ngân hàng',
  field_branch: 'Chi nhánh',
  field_account_name: 'Tên tài khoản',
  field_account_no: 'Số tài khoản',
  field_ifsc: 'IFSC',
  field_pix_key: 'Khóa Pix',
  field_upi_id: 'UPI ID',
  testTransferBanner:
    'Chế độ thử nghiệm — không có tiền thật: đơn hàng này chỉ được thanh toán bằng thông báo thử nghiệm',
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
