import {
  CloseCircleOutlined,
  CloseOutlined,
  ColumnWidthOutlined,
  PushpinOutlined,
  ReloadOutlined,
  VerticalLeftOutlined,
  VerticalRightOutlined,
} from '@ant-design/icons';
import { Dropdown, type MenuProps, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { DASHBOARD_PATH } from '../app/routes.ts';
import {
  closeAllViews,
  closeOtherViews,
  closeView,
  closeViewsLeft,
  closeViewsRight,
  tagsView,
  type VisitedView,
} from '../stores/tags-view.ts';

type Action = 'refresh' | 'close' | 'closeOthers' | 'closeLeft' | 'closeRight' | 'closeAll';

export function TagsView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const views = tagsView.useSelector((s) => s.views);

  /** After tabs closed: stay if the current page is still open, else go to the last tab left. */
  const afterClose = (preferred?: VisitedView) => {
    const left = tagsView.get().views;
    if (left.some((view) => view.path === pathname)) return;
    const next = preferred && left.some((v) => v.path === preferred.path) ? preferred : left.at(-1);
    navigate(next?.fullPath ?? DASHBOARD_PATH);
  };

  const run = (action: Action, view: VisitedView) => {
    switch (action) {
      case 'refresh':
        // Through /redirect so the page mounts afresh and fetches its data again.
        return navigate(`/redirect${view.fullPath}`, { replace: view.path === pathname });
      case 'close':
        closeView(view.path);
        return afterClose();
      case 'closeOthers':
        closeOtherViews(view.path);
        return afterClose(view);
      case 'closeLeft':
        closeViewsLeft(view.path);
        return afterClose(view);
      case 'closeRight':
        closeViewsRight(view.path);
        return afterClose(view);
      case 'closeAll':
        closeAllViews();
        return afterClose();
    }
  };

  const menuFor = (view: VisitedView, index: number): MenuProps => {
    const closableLeft = views.slice(0, index).some((v) => !v.affix);
    const closableRight = views.slice(index + 1).some((v) => !v.affix);
    const closableOthers = views.some((v, i) => i !== index && !v.affix);
    return {
      items: [
        { key: 'refresh', icon: <ReloadOutlined />, label: t('layout:tagsView.refresh') },
        { key: 'close', icon: <CloseOutlined />, label: t('layout:tagsView.close'), disabled: view.affix },
        {
          key: 'closeOthers',
          icon: <ColumnWidthOutlined />,
          label: t('layout:tagsView.closeOthers'),
          disabled: !closableOthers,
        },
        {
          key: 'closeLeft',
          icon: <VerticalRightOutlined />,
          label: t('layout:tagsView.closeLeft'),
          disabled: !closableLeft,
        },
        {
          key: 'closeRight',
          icon: <VerticalLeftOutlined />,
          label: t('layout:tagsView.closeRight'),
          disabled: !closableRight,
        },
        {
          key: 'closeAll',
          icon: <CloseCircleOutlined />,
          label: t('layout:tagsView.closeAll'),
          disabled: !views.some((v) => !v.affix),
        },
      ],
      onClick: ({ key }) => void run(key as Action, view),
    };
  };

  return (
    <nav className="tags-view" aria-label={t('layout:tagsView.label')}>
      <Tabs
        type="editable-card"
        size="small"
        hideAdd
        locale={{ removeAriaLabel: t('layout:tagsView.close'), dropdownAriaLabel: t('layout:tagsView.more') }}
        activeKey={pathname}
        onChange={(key) => {
          const view = views.find((v) => v.path === key);
          if (view) navigate(view.fullPath);
        }}
        onEdit={(key, action) => {
          const view = views.find((v) => v.path === key);
          if (action === 'remove' && view) run('close', view);
        }}
        items={views.map((view, index) => ({
          key: view.path,
          closable: !view.affix,
          label: (
            <Dropdown trigger={['contextMenu']} menu={menuFor(view, index)}>
              <span className="tags-view__label" data-path={view.path}>
                {view.affix && (
                  <PushpinOutlined className="tags-view__pin" aria-label={t('layout:tagsView.pinned')} />
                )}
                {t(view.titleKey)}
              </span>
            </Dropdown>
          ),
        }))}
      />
    </nav>
  );
}
