import { Drawer, Layout, Watermark } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { AntdConfig } from '../app/antd-config.tsx';
import { FeedbackHost } from '../app/feedback-host.tsx';
import { PasswordPromptHost } from '../components/password-prompt-host.tsx';
import { useCurrentUser } from '../lib/auth/get-current-user.ts';
import { useRecordLocale } from '../lib/auth/record-locale.ts';
import { appSettings, setDevice, setMobileMenuOpen, setSidebar } from '../stores/app-settings.ts';
import { layoutSettings } from '../stores/layout-settings.ts';
import { useMode } from '../stores/mode.ts';
import { tagsView } from '../stores/tags-view.ts';
import { KeepAliveOutlet } from './keep-alive-outlet.tsx';
import { Navbar } from './navbar.tsx';
import { SettingsDrawer } from './settings-drawer.tsx';
import { Sidebar } from './sidebar.tsx';
import { TagsView } from './tags-view.tsx';
import { TestModeBand } from './test-mode-band.tsx';
import { useTrackVisitedViews } from './use-visited-views.ts';
import '../i18n/dayjs-locale.ts';
import './layout.css';

// Narrower than this, the sidebar becomes a drawer (device = mobile).
const MOBILE_BREAKPOINT = 992;

function useDeviceFromWindowWidth() {
  useEffect(() => {
    const update = () => {
      const device = window.innerWidth < MOBILE_BREAKPOINT ? 'mobile' : 'desktop';
      const previous = appSettings.get().device;
      if (device === previous) return;
      setDevice(device);
      // Back on a wide window the sidebar appears as it was, without sliding in.
      if (device === 'desktop') setSidebar(appSettings.get().sidebarOpened, { withoutAnimation: true });
    };
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
}

const NO_PERMS: string[] = [];
const NO_TABS: string[] = [];

export default function AppLayout() {
  const user = useCurrentUser();
  const device = appSettings.useSelector((s) => s.device);
  const sidebarOpened = appSettings.useSelector((s) => s.sidebarOpened);
  const withoutAnimation = appSettings.useSelector((s) => s.sidebarWithoutAnimation);
  const mobileMenuOpen = appSettings.useSelector((s) => s.mobileMenuOpen);
  const showTags = layoutSettings.useSelector((s) => s.tagsView);
  const fixedHeader = layoutSettings.useSelector((s) => s.fixedHeader);
  const watermarkEnabled = layoutSettings.useSelector((s) => s.watermarkEnabled);
  const watermarkContent = layoutSettings.useSelector((s) => s.watermarkContent);
  const views = tagsView.useSelector((s) => s.views);
  const tabs = useMemo(() => (showTags ? views.map((view) => view.path) : NO_TABS), [showTags, views]);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const mode = useMode();
  useDeviceFromWindowWidth();
  useRecordLocale(user);
  useTrackVisitedViews(user?.perms ?? NO_PERMS);

  const isMobile = device === 'mobile';
  let main: ReactNode = (
    <Layout className="app-body">
      <div className={`app-header${fixedHeader ? ' app-header--fixed' : ''}`}>
        <TestModeBand />
        <Navbar onOpenSettings={() => setSettingsOpen(true)} />
        {showTags && <TagsView />}
      </div>
      <Layout.Content className="app-main">
        {/* Without the tags view there is no tab to close: no page is kept. Another mode mounts every page
            afresh (its key): none goes on showing the other mode's answers, nor a form filled in for it. */}
        <KeepAliveOutlet key={mode} tabs={tabs} />
      </Layout.Content>
    </Layout>
  );
  if (watermarkEnabled) {
    main = <Watermark content={watermarkContent.trim() || user?.name || ''}>{main}</Watermark>;
  }

  return (
    <AntdConfig>
      <FeedbackHost>
        <Layout className={`app-layout app-layout--${device}`} hasSider={!isMobile}>
          {isMobile ? (
            <Drawer
              placement="left"
              open={mobileMenuOpen}
              onClose={() => setMobileMenuOpen(false)}
              size={220}
              closable={false}
              styles={{ body: { padding: 0 } }}
              className="sidebar-drawer"
            >
              <Sidebar collapsed={false} onNavigate={() => setMobileMenuOpen(false)} />
            </Drawer>
          ) : (
            <Layout.Sider
              className={`app-sider${withoutAnimation ? ' app-sider--no-animation' : ''}`}
              theme="light"
              width={220}
              collapsedWidth={64}
              collapsed={!sidebarOpened}
              trigger={null}
            >
              <Sidebar collapsed={!sidebarOpened} />
            </Layout.Sider>
          )}
          {main}
          <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
          <PasswordPromptHost />
        </Layout>
      </FeedbackHost>
    </AntdConfig>
  );
}
