import { Alert, Descriptions, Divider, Drawer, Empty, Skeleton, Timeline, Typography } from 'antd';
import type { CallbackEvent } from '@paydesk/shared/collections/collections.schemas.ts';
import type { ChannelAttempt } from '@paydesk/shared/channels/attempts.schemas.ts';
import { CallbackEvents } from '../callback-events.tsx';
import { ChannelAttempts } from '../channel-attempts.tsx';
import { DateTime } from '../date-time.tsx';
import { useHasPerm } from '../has-perm.tsx';
import { isEmptyCell, renderCell, wordsOf } from './cells.tsx';
import type { CellContext, DetailDeclaration, DrawerSection } from './declaration.ts';
import type { ListApi, ListId } from './list-api.ts';

type Step = { step: string; at: string };

function Section<Detail>({
  section,
  detail,
  id,
  name,
  api,
  context,
}: {
  section: DrawerSection<Detail>;
  detail: Detail;
  id: ListId;
  name: string;
  api: ListApi<never, unknown, Detail>;
  context: CellContext;
}) {
  const { t } = context;
  if (section.kind === 'callbacks') {
    // A list whose callbacks are not resent (refunds, for now): shown read-only.
    if (!section.perm || !api.useResend)
      return <CallbackEvents name={name} events={detail[section.field] as CallbackEvent[]} />;
    return (
      <Callbacks
        name={name}
        events={detail[section.field] as CallbackEvent[]}
        perm={section.perm}
        id={id}
        useResend={api.useResend}
      />
    );
  }
  if (section.kind === 'attempts') {
    return <ChannelAttempts name={name} attempts={detail[section.field] as ChannelAttempt[]} />;
  }
  if (section.kind === 'custom') {
    return (
      <>
        <Typography.Title level={5}>{t(section.title)}</Typography.Title>
        {section.render(detail, context)}
      </>
    );
  }
  const steps = detail[section.field] as Step[];
  return (
    <>
      <Typography.Title level={5}>{t(section.title)}</Typography.Title>
      {steps.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(section.empty)} />
      ) : (
        <div data-testid={`${name}-timeline`}>
          <Timeline
            items={steps.map((item, index) => ({
              key: `${item.step}-${index}`,
              color: section.colors[item.step],
              title: <DateTime value={item.at} />,
              content: t(`${section.steps}.${item.step}`),
            }))}
          />
        </div>
      )}
    </>
  );
}

/** The callbacks section; only a user with the list's notify permission (not a read-only role) may resend. */
function Callbacks({
  name,
  events,
  perm,
  id,
  useResend,
}: {
  name: string;
  events: CallbackEvent[];
  perm: Parameters<typeof useHasPerm>[0];
  id: ListId;
  useResend: ListApi<never, unknown, unknown>['useResend'];
}) {
  const canResend = useHasPerm(perm);
  // The declaration has a callbacks section only where the api has the notify endpoint.
  const resend = useResend!();
  return (
    <CallbackEvents
      name={name}
      events={events}
      resend={canResend ? { onResend: () => resend.mutateAsync(id), isPending: resend.isPending } : undefined}
    />
  );
}

/** The body of an open drawer: its alerts, its fields, then its sections. */
function DetailBody<Detail>({
  declaration,
  detail,
  id,
  name,
  api,
  context,
}: {
  declaration: DetailDeclaration<Detail>;
  detail: Detail;
  id: ListId;
  name: string;
  api: ListApi<never, unknown, Detail>;
  context: CellContext;
}) {
  const { t } = context;
  return (
    <>
      {declaration.alerts
        ?.filter((alert) =>
          alert.when ? alert.when(detail) : alert.field !== undefined && Boolean(detail[alert.field]),
        )
        .map((alert) => (
          <Alert
            key={alert.title}
            type={alert.type}
            showIcon
            style={{ marginBottom: 16 }}
            title={t(alert.title)}
            description={alert.field === undefined ? undefined : (detail[alert.field] as string)}
            data-testid={alert.testId}
          />
        ))}
      <Descriptions
        column={1}
        bordered
        size="small"
        items={declaration.fields
          .filter((field) => !(field.omitEmpty && isEmptyCell(field, detail, context)))
          .map((field) => ({
            key: field.key,
            label: wordsOf(field.label, context, detail),
            children: renderCell(field, detail, context, true),
          }))}
      />
      {declaration.sections?.map((section) => (
        <div key={section.kind === 'custom' ? section.title : section.field}>
          <Divider />
          <Section section={section} detail={detail} id={id} name={name} api={api} context={context} />
        </div>
      ))}
    </>
  );
}

/** A list without a detail endpoint: its drawer shows the row. */
const noDetail = (): undefined => undefined;

/**
 * A list's detail drawer from its declaration: open while `row` is set; the detail endpoint's answer when
 * the list has one (a skeleton while it loads), else the row itself.
 */
export function DetailDrawer<Row extends object, Detail>({
  declaration,
  row,
  rowKey,
  name,
  api,
  context,
  onClose,
}: {
  declaration: DetailDeclaration<Detail>;
  row: Row | undefined;
  rowKey: keyof Row & string;
  name: string;
  api: ListApi<never, unknown, Detail>;
  context: CellContext;
  onClose: () => void;
}) {
  const id = row?.[rowKey] as ListId | undefined;
  const useDetail = api.useDetail ?? noDetail;
  const loaded = useDetail(id);
  const detail = api.useDetail ? loaded?.data : (row as Detail | undefined);
  return (
    <Drawer
      open={row !== undefined}
      onClose={onClose}
      title={context.t(declaration.title.key ?? 'detail.title', { [declaration.title.param]: id ?? '' })}
      size="large"
    >
      {row === undefined ? null : loaded?.isLoading || detail === undefined ? (
        <Skeleton active />
      ) : (
        <DetailBody
          declaration={declaration}
          detail={detail}
          id={id!}
          name={name}
          api={api}
          context={context}
        />
      )}
    </Drawer>
  );
}
