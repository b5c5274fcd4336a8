import {
  CalendarOutlined,
  CloseCircleFilled,
  DoubleLeftOutlined,
  DoubleRightOutlined,
  LeftOutlined,
  RightOutlined,
  SwapRightOutlined,
} from '@ant-design/icons';
import { Button, ConfigProvider, Input, Popover, theme } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import {
  type ChangeEvent,
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../lib/date-time.ts';
import './date-range-input.css';

// The range's times are clock times the server reads in the user's zone: held in UTC mode, so the browser's
// own zone (its daylight saving gaps: 02:30 on a spring-forward day) never moves them.
dayjs.extend(utc);

/** "YYYY-MM-DD[ HH:mm:ss]" as a clock time (see above). */
export const clockTime = (text: string): Dayjs => dayjs.utc(text);

export type DateRange = [Dayjs, Dayjs];

type Side = 0 | 1;
type Pair<T> = [T, T];
type DayKey = string; // "YYYY-MM-DD"

const DATE = 'YYYY-MM-DD';
const DATE_TIME = 'YYYY-MM-DD HH:mm:ss';
const TIME = 'HH:mm:ss';
// A time range's start is the first second of its day, its end the last, unless a time is given.
const DEFAULT_TIMES: Pair<string> = ['00:00:00', '23:59:59'];
const TEXT = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const TIME_TEXT = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
// What a text is on its way to: a digit where the template has 0, the template's own character elsewhere.
const TEMPLATE = '0000-00-00 00:00:00';
const SIDES: Side[] = [0, 1];

const other = (side: Side): Side => (side === 0 ? 1 : 0);

/** "8:05:00" -> [8, 5, 0]; null when it is no time of day. */
function parseTime(text: string): [number, number, number] | null {
  const match = TIME_TEXT.exec(text.trim());
  if (!match) return null;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  return hour < 24 && minute < 60 && second < 60 ? [hour, minute, second] : null;
}

/** A typed date (with its time, for a time range) as a Dayjs; null when it is no such day (2026-02-30). */
function parseText(text: string, withTime: boolean, side: Side): Dayjs | null {
  const match = TEXT.exec(text.trim());
  if (!match || (!withTime && match[4] !== undefined)) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const time = !withTime
    ? ([0, 0, 0] as const)
    : match[4] === undefined
      ? parseTime(DEFAULT_TIMES[side])
      : parseTime(`${match[4]}:${match[5]}:${match[6] ?? '00'}`);
  // Years below 100 would be read as 19xx by Date.
  if (!time || year < 1000) return null;
  const date = dayjs.utc(Date.UTC(year, month, day, ...time));
  return date.year() === year && date.month() === month && date.date() === day ? date : null;
}

/** Still being typed: what is there fits the format, the parts typed in full can be, the rest is to come. */
function isOnTheWay(text: string, withTime: boolean): boolean {
  const template = withTime ? TEMPLATE : TEMPLATE.slice(0, DATE.length);
  const fits = [...text].every((char, i) =>
    template[i] === '0' ? char >= '0' && char <= '9' : char === template[i],
  );
  if (!fits || text.length >= template.length) return false;
  const part = (from: number, to: number) => (text.length >= to ? Number(text.slice(from, to)) : null);
  const [month, hour, minute] = [part(5, 7), part(11, 13), part(14, 16)];
  if (month !== null && (month < 1 || month > 12)) return false;
  if (text.length >= DATE.length && !parseText(text.slice(0, DATE.length), false, 0)) return false;
  return (hour === null || hour < 24) && (minute === null || minute < 60);
}

const formatRange = (range: DateRange | null | undefined, format: string): Pair<string> =>
  range ? [range[0].format(format), range[1].format(format)] : ['', ''];

/**
 * The two days after a click on `day` as the `side` end of the range. The second click of a choice puts
 * the earlier day first; a first click that passes the other end (left from the range shown before)
 * drops that end, which the next click chooses again.
 */
function pickDay(
  side: Side,
  day: DayKey,
  days: Pair<DayKey | null>,
  otherPicked: boolean,
): Pair<DayKey | null> {
  const next: Pair<DayKey | null> = side === 0 ? [day, days[1]] : [days[0], day];
  if (next[0] === null || next[1] === null || next[0] <= next[1]) return next;
  if (otherPicked) return [next[1], next[0]];
  return side === 0 ? [day, null] : [null, day];
}

/** Today in the given time zone (a UTC offset or an IANA name; the browser's when none). */
const todayIn = (timeZone: string | undefined): Dayjs =>
  clockTime(formatDateTime(Date.now(), timeZone, { dateOnly: true }));

/** Dayjs values keep the locale they were made in; names are shown in the console's current one. */
const localized = (date: Dayjs) => date.locale(dayjs.locale());

const PRESETS = {
  today: (today: Dayjs): Pair<Dayjs> => [today, today],
  yesterday: (today: Dayjs): Pair<Dayjs> => [today.subtract(1, 'day'), today.subtract(1, 'day')],
  last7Days: (today: Dayjs): Pair<Dayjs> => [today.subtract(6, 'day'), today],
  thisMonth: (today: Dayjs): Pair<Dayjs> => [today.startOf('month'), today.endOf('month').startOf('day')],
};

/** A month of days to show: six weeks from the locale's first day of the week before the 1st. */
function monthGrid(month: Dayjs, weekStart: number): Dayjs[] {
  const first = month.startOf('month');
  const from = first.subtract((first.day() - weekStart + 7) % 7, 'day');
  return Array.from({ length: 42 }, (_, i) => from.add(i, 'day'));
}

const px = (value: number) => `${value}px`;

/**
 * A date (or date and time) range field: "start → end", typed or chosen on a month calendar, in antd's
 * look from the theme's tokens. antd's RangePicker costs every list page 34 KB gzip (DESIGN 8: a page
 * under 80 KB beyond the layout); this uses only what the layout already loads. Its value is the pair
 * or null, as antd's, so it sits in a Form.Item. A text that is no date shows red and is not taken; a
 * start after the end changes places with it; leaving the field takes a complete pair and puts back
 * the last value otherwise; Escape puts it back too.
 */
export function DateRangeInput({
  value,
  onChange,
  withTime = false,
  placeholder,
  id,
  disabled: disabledProp,
  timeZone,
  style,
  'aria-label': label,
}: {
  value?: DateRange | null;
  onChange?: (value: DateRange | null) => void;
  /** Date and time ("YYYY-MM-DD HH:mm:ss", from 00:00:00 to 23:59:59 unless set), else dates. */
  withTime?: boolean;
  placeholder?: Pair<string>;
  /** Form.Item's id, given to the start input as antd's pickers do. */
  id?: string;
  disabled?: boolean;
  /** The zone whose today is marked and starts the presets (the user's); the browser's when none. */
  timeZone?: string;
  style?: CSSProperties;
  'aria-label': string;
}) {
  const { t } = useTranslation('common');
  const { token } = theme.useToken();
  const { componentDisabled, componentSize } = ConfigProvider.useConfig();
  const disabled = disabledProp ?? componentDisabled ?? false;
  const format = withTime ? DATE_TIME : DATE;

  const committed = formatRange(value, format);
  const committedKey = committed.join('~');
  const [texts, setTexts] = useState<Pair<string>>(committed);
  // A new value from outside (the form reset, the URL changed) replaces what is typed.
  const [shownKey, setShownKey] = useState(committedKey);
  if (shownKey !== committedKey) {
    setShownKey(committedKey);
    setTexts(committed);
  }
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState<Side>(0);
  const [picked, setPicked] = useState<Pair<boolean>>([false, false]);
  const [month, setMonth] = useState<Dayjs>(() =>
    (value?.[0] ? clockTime(value[0].format(DATE)) : todayIn(timeZone)).startOf('month'),
  );
  const [times, setTimes] = useState<Pair<string>>(DEFAULT_TIMES);
  const [hovered, setHovered] = useState<DayKey | null>(null);
  // Enter was pressed on a text that is no date yet: show it as wrong though it may be on its way.
  const [tried, setTried] = useState<Pair<boolean>>([false, false]);
  const groupRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const startRef = useRef<HTMLInputElement>(null);
  const endRef = useRef<HTMLInputElement>(null);
  const inputOf = (side: Side) => (side === 0 ? startRef : endRef).current;

  const parsed: Pair<Dayjs | null> = [parseText(texts[0], withTime, 0), parseText(texts[1], withTime, 1)];
  const invalid = SIDES.map((side) => {
    const text = texts[side].trim();
    return text !== '' && !parsed[side] && (tried[side] || !isOnTheWay(text, withTime));
  });
  const days: Pair<DayKey | null> = [parsed[0]?.format(DATE) ?? null, parsed[1]?.format(DATE) ?? null];
  const today = todayIn(timeZone);

  /** Takes the texts as the value when they are a range (or both empty); false when they are not. */
  const commit = (next: Pair<string>): boolean => {
    const [startText, endText] = [next[0].trim(), next[1].trim()];
    if (startText === '' && endText === '') {
      if (value) onChange?.(null);
      setTexts(['', '']);
      return true;
    }
    let start = parseText(startText, withTime, 0);
    let end = parseText(endText, withTime, 1);
    if (!start || !end) return false;
    if (start.isAfter(end)) {
      // Read again from the other side, so a day typed alone takes that side's time.
      start = parseText(endText, withTime, 0) as Dayjs;
      end = parseText(startText, withTime, 1) as Dayjs;
    }
    const range: DateRange = [start, end];
    const shown = formatRange(range, format);
    if (shown.join('~') !== committedKey) onChange?.(range);
    setTexts(shown);
    return true;
  };

  const close = () => {
    // Focus in the calendar (a time) goes back to the input rather than to the page with the popup.
    if (panelRef.current?.contains(document.activeElement)) inputOf(active)?.focus();
    setOpen(false);
    setHovered(null);
    setTried([false, false]);
  };
  const cancel = () => {
    setTexts(committed);
    close();
  };
  const leave = () => {
    if (!commit(texts)) setTexts(committed);
    close();
  };

  const openAt = (side: Side) => {
    if (disabled) return;
    setActive(side);
    if (open) return;
    setOpen(true);
    setPicked([false, false]);
    setMonth((parsed[side] ?? parsed[other(side)] ?? today).startOf('month'));
    setTimes([parsed[0]?.format(TIME) ?? DEFAULT_TIMES[0], parsed[1]?.format(TIME) ?? DEFAULT_TIMES[1]]);
  };

  // Focus moving between the inputs and the calendar stays in the field; anywhere else leaves it.
  const onBlur = (event: FocusEvent) => {
    const next = event.relatedTarget;
    if (next instanceof Node && (groupRef.current?.contains(next) || panelRef.current?.contains(next)))
      return;
    leave();
  };

  const onText = (side: Side) => (event: ChangeEvent<HTMLInputElement>) => {
    const text = event.target.value;
    setTexts(side === 0 ? [text, texts[1]] : [texts[0], text]);
    setTried(side === 0 ? [false, tried[1]] : [tried[0], false]);
    // Opening first: it sets the month and times from the texts before this one.
    if (!open) openAt(side);
    const date = parseText(text, withTime, side);
    if (date) {
      setMonth(date.startOf('month'));
      if (withTime) setTimes(side === 0 ? [date.format(TIME), times[1]] : [times[0], date.format(TIME)]);
    }
  };

  const onKeyDown = (side: Side) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && open) {
      // Closes the calendar only, not a drawer or dialog the field is in.
      event.stopPropagation();
      cancel();
      return;
    }
    if (event.key !== 'Enter') return;
    const [text, otherText] = [texts[side].trim(), texts[other(side)].trim()];
    if (text !== '' && !parsed[side]) {
      event.preventDefault();
      setTried(side === 0 ? [true, tried[1]] : [tried[0], true]);
      return;
    }
    if ((text === '') !== (otherText === '')) {
      // Half a range: on to the empty end.
      event.preventDefault();
      inputOf(text === '' ? side : other(side))?.focus();
      return;
    }
    if (!commit(texts)) {
      event.preventDefault();
      setTried([true, true]);
      return;
    }
    // Taken: Enter goes on to the form, which searches, as in the other filters.
    close();
  };

  const dayText = (side: Side, day: DayKey | null) =>
    day === null
      ? ''
      : withTime
        ? `${day} ${parseTime(times[side]) ? times[side] : DEFAULT_TIMES[side]}`
        : day;

  const onDay = (day: Dayjs) => {
    const side = active;
    const chosen = pickDay(side, day.format(DATE), days, picked[other(side)]);
    const next: Pair<string> = [dayText(0, chosen[0]), dayText(1, chosen[1])];
    const nowPicked: Pair<boolean> = side === 0 ? [true, picked[1]] : [picked[0], true];
    setPicked(nowPicked);
    setTried([false, false]);
    if (nowPicked[0] && nowPicked[1] && chosen[0] !== null && chosen[1] !== null) {
      // Both ends chosen: dates are taken at once, times on OK (they may still change); a further click
      // starts a new range.
      setPicked([false, false]);
      setActive(0);
      if (withTime) setTexts(next);
      else if (commit(next)) close();
      return;
    }
    setTexts(next);
    setActive(other(side));
    inputOf(other(side))?.focus();
  };

  const onTime = (side: Side) => (event: ChangeEvent<HTMLInputElement>) => {
    const text = event.target.value;
    setTimes(side === 0 ? [text, times[1]] : [times[0], text]);
    const time = parseTime(text);
    const date = parsed[side];
    if (!time || !date) return;
    const next = date.hour(time[0]).minute(time[1]).second(time[2]).format(DATE_TIME);
    setTexts(side === 0 ? [next, texts[1]] : [texts[0], next]);
  };

  const onOk = () => {
    if (commit(texts)) close();
  };

  const onPreset = (range: Pair<Dayjs>) => {
    const [start, end] = withTime ? [range[0], range[1].hour(23).minute(59).second(59)] : range;
    if (commit(formatRange([start, end], format))) close();
  };

  const onClear = () => {
    commit(['', '']);
    close();
  };

  // A press on the field's frame or icons stays in its input rather than taking the focus away.
  const onGroupMouseDown = (event: MouseEvent) => {
    if (event.target instanceof HTMLInputElement) return;
    event.preventDefault();
    if (disabled || (event.target instanceof Element && event.target.closest('.date-range-input__clear')))
      return;
    const input = document.activeElement === endRef.current ? endRef.current : startRef.current;
    input?.focus();
    openAt(input === endRef.current ? 1 : 0);
  };

  // ============================= Looks =============================
  // antd 6 calls the default size both "medium" and (deprecated) "middle".
  const size = componentSize === 'small' || componentSize === 'large' ? componentSize : 'medium';
  const vars = {
    '--date-range-height': px(
      { small: token.controlHeightSM, medium: token.controlHeight, large: token.controlHeightLG }[size],
    ),
    '--date-range-padding-inline': px(
      (size === 'small' ? token.paddingXS : token.paddingSM) - token.lineWidth,
    ),
    '--date-range-radius': px(
      { small: token.borderRadiusSM, medium: token.borderRadius, large: token.borderRadiusLG }[size],
    ),
    '--date-range-font-size': px(size === 'large' ? token.fontSizeLG : token.fontSize),
    '--date-range-line-height': token.lineHeight,
    '--date-range-bg': token.colorBgContainer,
    '--date-range-bg-disabled': token.colorBgContainerDisabled,
    '--date-range-color': token.colorText,
    '--date-range-color-disabled': token.colorTextDisabled,
    '--date-range-placeholder': token.colorTextPlaceholder,
    '--date-range-icon': token.colorTextQuaternary,
    '--date-range-icon-hover': token.colorIcon,
    '--date-range-border': token.colorBorder,
    '--date-range-border-hover': token.colorPrimaryHover,
    '--date-range-primary': token.colorPrimary,
    '--date-range-outline': `0 0 0 ${px(token.controlOutlineWidth)} ${token.controlOutline}`,
    '--date-range-error': token.colorError,
    '--date-range-error-hover': token.colorErrorBorderHover,
    '--date-range-error-outline': `0 0 0 ${px(token.controlOutlineWidth)} ${token.colorErrorOutline}`,
    '--date-range-gap': px(token.paddingXS),
    '--date-range-bar': px(token.lineWidthBold),
    '--date-range-motion': token.motionDurationMid,
    '--date-range-on-primary': token.colorTextLightSolid,
    '--date-range-cell-hover': token.controlItemBgHover,
    '--date-range-in-range': token.controlItemBgActive,
    '--date-range-split': token.colorSplit,
    '--date-range-heading': token.colorTextHeading,
    '--date-range-strong': token.fontWeightStrong,
    '--date-range-radius-sm': px(token.borderRadiusSM),
    '--date-range-cell-height': px(token.controlHeightSM),
    '--date-range-cell-width': px(token.controlHeightSM * 1.5),
    '--date-range-header-height': px(token.controlHeightLG),
    '--date-range-panel-font-size': px(token.fontSize),
  } as CSSProperties;

  // ============================ Calendar ============================
  // While a day is pointed at and the other end is there, the range shows as that click would leave it.
  let [from, to] =
    open && hovered && days[other(active)] !== null
      ? pickDay(active, hovered, days, picked[other(active)])
      : days;
  if (from === null || to === null) [from, to] = [from ?? to, to ?? from];
  const todayKey = today.format(DATE);
  const weekStart = dayjs.Ls[dayjs.locale()]?.weekStart ?? 0;
  const aSunday = localized(dayjs('2024-01-07'));
  const weekdays = Array.from({ length: 7 }, (_, i) => aSunday.add(weekStart + i, 'day'));
  const grid = monthGrid(month, weekStart);

  const nav = (labelKey: string, icon: ReactNode, target: Dayjs) => (
    <button
      type="button"
      tabIndex={-1}
      className="date-range-panel__nav"
      aria-label={t(labelKey)}
      onClick={() => setMonth(target)}
    >
      {icon}
    </button>
  );

  const panel = (
    <div
      ref={panelRef}
      className="date-range-panel"
      style={vars}
      role="dialog"
      aria-label={label}
      onBlur={onBlur}
      onMouseDown={(event) => {
        if (!(event.target instanceof HTMLInputElement)) event.preventDefault();
      }}
    >
      <ul className="date-range-panel__presets">
        {(Object.keys(PRESETS) as (keyof typeof PRESETS)[]).map((key) => (
          <li key={key}>
            <button
              type="button"
              tabIndex={-1}
              className="date-range-panel__preset"
              onClick={() => onPreset(PRESETS[key](today))}
            >
              {t(`dateRange.presets.${key}`)}
            </button>
          </li>
        ))}
      </ul>
      <div className="date-range-panel__main">
        <div className="date-range-panel__header">
          {nav('dateRange.previousYear', <DoubleLeftOutlined />, month.subtract(1, 'year'))}
          {nav('dateRange.previousMonth', <LeftOutlined />, month.subtract(1, 'month'))}
          <span className="date-range-panel__title" aria-live="polite">
            {localized(month).format(t('dateRange.monthFormat'))}
          </span>
          {nav('dateRange.nextMonth', <RightOutlined />, month.add(1, 'month'))}
          {nav('dateRange.nextYear', <DoubleRightOutlined />, month.add(1, 'year'))}
        </div>
        <table className="date-range-panel__calendar" onMouseLeave={() => setHovered(null)}>
          <thead>
            <tr>
              {weekdays.map((day) => (
                <th key={day.day()} scope="col" abbr={day.format('dddd')}>
                  {day.format('dd')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: 6 }, (_, week) => (
              <tr key={week}>
                {grid.slice(week * 7, week * 7 + 7).map((day) => {
                  const key = day.format(DATE);
                  const isEnd = key === from || key === to;
                  const className = [
                    'date-range-panel__cell',
                    day.month() !== month.month() && 'date-range-panel__cell--outside',
                    key === todayKey && 'date-range-panel__cell--today',
                    from !== to &&
                      from !== null &&
                      to !== null &&
                      key > from &&
                      key < to &&
                      'date-range-panel__cell--in-range',
                    from !== to && key === from && 'date-range-panel__cell--range-start',
                    from !== to && key === to && 'date-range-panel__cell--range-end',
                    isEnd && 'date-range-panel__cell--selected',
                  ]
                    .filter(Boolean)
                    .join(' ');
                  return (
                    <td key={key} className={className}>
                      <button
                        type="button"
                        tabIndex={-1}
                        className="date-range-panel__day"
                        aria-label={localized(day).format(t('dateRange.dayFormat'))}
                        aria-pressed={key === days[0] || key === days[1]}
                        aria-current={key === todayKey ? 'date' : undefined}
                        onMouseEnter={() => setHovered(key)}
                        onClick={() => onDay(day)}
                      >
                        {day.date()}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        {withTime && (
          <div className="date-range-panel__footer">
            {SIDES.map((side) => (
              <label key={side} className="date-range-panel__time">
                <span>{t(side === 0 ? 'dateRange.startTime' : 'dateRange.endTime')}</span>
                <Input
                  size="small"
                  value={times[side]}
                  placeholder={TIME}
                  status={parseTime(times[side]) ? undefined : 'error'}
                  autoComplete="off"
                  onChange={onTime(side)}
                  onFocus={() => setActive(side)}
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') onOk();
                    if (event.key === 'Escape') {
                      // As in the inputs: the calendar closes, not a drawer or dialog around the field.
                      event.stopPropagation();
                      cancel();
                    }
                  }}
                  onBlur={() => {
                    // A time left half typed shows the one in use again (the panel's onBlur does the rest).
                    if (!parseTime(times[side]))
                      setTimes(
                        side === 0
                          ? [parsed[0]?.format(TIME) ?? DEFAULT_TIMES[0], times[1]]
                          : [times[0], parsed[1]?.format(TIME) ?? DEFAULT_TIMES[1]],
                      );
                  }}
                />
              </label>
            ))}
            <Button
              type="primary"
              size="small"
              className="date-range-panel__ok"
              disabled={!parsed[0] || !parsed[1]}
              onClick={onOk}
            >
              {t('dateRange.ok')}
            </Button>
          </div>
        )}
      </div>
    </div>
  );

  const field = (side: Side) => (
    <span
      className={`date-range-input__field${open && active === side ? ' date-range-input__field--active' : ''}`}
    >
      <input
        ref={side === 0 ? startRef : endRef}
        id={side === 0 ? id : undefined}
        className="date-range-input__input"
        value={texts[side]}
        placeholder={placeholder?.[side]}
        aria-label={t(side === 0 ? 'dateRange.start' : 'dateRange.end', { label })}
        aria-invalid={invalid[side] || undefined}
        size={Math.max(10, format.length) + 2}
        autoComplete="off"
        disabled={disabled}
        onChange={onText(side)}
        onFocus={() => openAt(side)}
        onClick={() => openAt(side)}
        onBlur={onBlur}
        onKeyDown={onKeyDown(side)}
      />
    </span>
  );

  const hasText = texts[0] !== '' || texts[1] !== '' || value != null;
  const groupClass = [
    'date-range-input',
    open && 'date-range-input--open',
    (invalid[0] || invalid[1]) && 'date-range-input--invalid',
    disabled && 'date-range-input--disabled',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <Popover
      open={open && !disabled}
      onOpenChange={(next) => {
        // The popup's own closing: Escape.
        if (!next) cancel();
      }}
      trigger={[]}
      placement="bottomLeft"
      arrow={false}
      destroyOnHidden
      styles={{ container: { padding: 0 } }}
      content={panel}
    >
      <div
        ref={groupRef}
        role="group"
        aria-label={label}
        className={groupClass}
        style={{ ...vars, ...style }}
        onMouseDown={onGroupMouseDown}
      >
        {field(0)}
        <span className="date-range-input__separator" aria-hidden>
          <SwapRightOutlined />
        </span>
        {field(1)}
        <span className="date-range-input__suffix" aria-hidden>
          <CalendarOutlined />
        </span>
        {hasText && !disabled && (
          <button
            type="button"
            tabIndex={-1}
            className="date-range-input__clear"
            aria-label={t('dateRange.clear')}
            onClick={onClear}
          >
            <CloseCircleFilled />
          </button>
        )}
      </div>
    </Popover>
  );
}
