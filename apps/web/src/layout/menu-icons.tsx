import {
  AccountBookOutlined,
  BankOutlined,
  CustomerServiceOutlined,
  ExportOutlined,
  HomeOutlined,
  ProfileOutlined,
  SendOutlined,
  SettingOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { IconName } from '../app/routes.ts';

// The spec's icon names (home, order, df = payouts, cz = top-ups, pass = withdrawals, cash = funds,
// set, export, lx = contact) drawn with Ant Design's icons; hidden from screen readers, which read the
// entry's label instead.
export const MENU_ICONS: Record<IconName, ReactNode> = {
  home: <HomeOutlined aria-hidden />,
  order: <ProfileOutlined aria-hidden />,
  df: <SendOutlined aria-hidden />,
  cz: <WalletOutlined aria-hidden />,
  pass: <BankOutlined aria-hidden />,
  cash: <AccountBookOutlined aria-hidden />,
  set: <SettingOutlined aria-hidden />,
  export: <ExportOutlined aria-hidden />,
  lx: <CustomerServiceOutlined aria-hidden />,
};
