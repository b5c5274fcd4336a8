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
  createContext,
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { DayPicker, type DayButtonProps, type MonthCaptionProps, useDayPicker } from 'react-day-picker';
import { flushSync } from 'react-dom';
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

/** A day as react-day-picker holds it: midnight UTC, the zone it is given (see clockTime). */
const asDate = (day: DayKey): Date => new Date(`${day}T00:00:00Z`);
const dayOf = (date: Date): DayKey => dayjs.utc(date.getTime()).format(DATE);
const named = (date: Date, format: string) => localized(dayjs.utc(date.getTime())).format(format);

/** Whether the key moves focus into the grid's days, and the key pressed while they have it. */
const GridFocus = createContext<{ current: boolean }>({ current: false });

/**
 * react-day-picker's day: named for screen readers with today marked, and focused by the grid only while
 * the keyboard is in it (a click leaves the focus in the input, where typing goes on).
 */
function Day({ day: _day, modifiers, ...props }: DayButtonProps) {
  const ref = useRef<HTMLButtonElement>(null);
  const keyboard = useContext(GridFocus);
  useEffect(() => {
    if (modifiers.focused && keyboard.current) ref.current?.focus();
  }, [modifiers.focused, keyboard]);
  return <button ref={ref} {...props} aria-current={modifiers.today ? 'date' : undefined} />;
}

/** The month's title between the previous and next year and month, antd's calendar header. */
function Caption({ calendarMonth: _month, displayIndex: _index, children, ...props }: MonthCaptionProps) {
  const { t } = useTranslation('common');
  const { goToMonth, previousMonth, nextMonth, months } = useDayPicker();
  const shown = months[0].date;
  const nav = (labelKey: string, icon: ReactNode, target: Date | undefined, canGo: Date | undefined) => (
    <Button
      type="text"
      size="small"
      tabIndex={-1}
      icon={icon}
      aria-label={t(labelKey)}
      disabled={!canGo}
      onClick={() => target && goToMonth(target)}
    />
  );
  const years = (count: number) => dayjs.utc(shown.getTime()).add(count, 'year').toDate();
  return (
    <div {...props} className="date-range-panel__header">
      {nav('dateRange.previousYear', <DoubleLeftOutlined />, years(-1), previousMonth)}
      {nav('dateRange.previousMonth', <LeftOutlined />, previousMonth, previousMonth)}
      {children}
      {nav('dateRange.nextMonth', <RightOutlined />, nextMonth, nextMonth)}
      {nav('dateRange.nextYear', <DoubleRightOutlined />, years(1), nextMonth)}
    </div>
  );
}

const COMPONENTS = { DayButton: Day, MonthCaption: Caption };

const px = (value: number) => `${value}px`;

/**
 * A date (or date and time) range field: "start → end", typed, or chosen on react-day-picker's month grid
 * (arrow keys, Page Up/Down, Enter) in antd's Popover, in antd's look from the theme's tokens. antd's
 * RangePicker would cost every list page 34 KB gzip (DESIGN 8) and read typed times in the browser's
 * zone. Its value is the pair or null, as antd's, so it sits in a Form.Item. A text that is no date, or a
 * day out of min..max, shows red and is not taken; a start after the end changes places with it; leaving
 * the field takes a complete pair and puts back the last value otherwise; Escape puts it back too.
 * ArrowDown in an input moves into the calendar's days.
 */
export function DateRangeInput({
  value,
  onChange,
  withTime = false,
  placeholder,
  id,
  disabled: disabledProp,
  timeZone,
  min = null,
  max,
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
  /** The first day that can be chosen; none when null. */
  min?: Dayjs | null;
  /**
   * The last day that can be chosen: by default the user's today, as the console's ranges filter what
   * has happened (no list has rows in the future); none when null.
   */
  max?: Dayjs | null;
  style?: CSSProperties;
  'aria-label': string;
}) {
  const { t, i18n } = useTranslation('common');
  const { token } = theme.useToken();
  const { componentDisabled, componentSize } = ConfigProvider.useConfig();
  const disabled = disabledProp ?? componentDisabled ?? false;
  const format = withTime ? DATE_TIME : DATE;
  const today = todayIn(timeZone);
  const todayKey = today.format(DATE);
  const bounds: Pair<DayKey | null> = [
    min?.format(DATE) ?? null,
    max === null ? null : (max?.format(DATE) ?? todayKey),
  ];

  /** A typed date (see parseText) that is also a day the field offers. */
  const read = (text: string, side: Side): Dayjs | null => {
    const date = parseText(text, withTime, side);
    const day = date?.format(DATE);
    if (!date || (bounds[0] && day! < bounds[0]) || (bounds[1] && day! > bounds[1])) return null;
    return date;
  };

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
    (value?.[0] ? clockTime(value[0].format(DATE)) : today).startOf('month'),
  );
  const [times, setTimes] = useState<Pair<string>>(DEFAULT_TIMES);
  const [hovered, setHovered] = useState<DayKey | null>(null);
  // Enter was pressed on a text that is no date yet: show it as wrong though it may be on its way.
  const [tried, setTried] = useState<Pair<boolean>>([false, false]);
  const groupRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const startRef = useRef<HTMLInputElement>(null);
  const endRef = useRef<HTMLInputElement>(null);
  // The keyboard is in the calendar's days (a press of the mouse there ends it).
  const keyboardInGrid = useRef(false);
  const inputOf = (side: Side) => (side === 0 ? startRef : endRef).current;

  const parsed: Pair<Dayjs | null> = [read(texts[0], 0), read(texts[1], 1)];
  const invalid = SIDES.map((side) => {
    const text = texts[side].trim();
    return text !== '' && !parsed[side] && (tried[side] || !isOnTheWay(text, withTime));
  });
  const days: Pair<DayKey | null> = [parsed[0]?.format(DATE) ?? null, parsed[1]?.format(DATE) ?? null];

  /** Takes the texts as the value when they are a range (or both empty); false when they are not. */
  const commit = (next: Pair<string>): boolean => {
    const [startText, endText] = [next[0].trim(), next[1].trim()];
    if (startText === '' && endText === '') {
      if (value) onChange?.(null);
      setTexts(['', '']);
      return true;
    }
    let start = read(startText, 0);
    let end = read(endText, 1);
    if (!start || !end) return false;
    if (start.isAfter(end)) {
      // Read again from the other side, so a day typed alone takes that side's time.
      start = read(endText, 0) as Dayjs;
      end = read(startText, 1) as Dayjs;
    }
    const range: DateRange = [start, end];
    const shown = formatRange(range, format);
    if (shown.join('~') !== committedKey) onChange?.(range);
    setTexts(shown);
    return true;
  };

  const close = () => {
    // Focus in the calendar (a day, a time) goes back to the input rather than to the page with the popup.
    if (panelRef.current?.contains(document.activeElement)) inputOf(active)?.focus();
    keyboardInGrid.current = false;
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

  /** Into the grid, on its day to start from (the one chosen, else today), as a listbox's ArrowDown. */
  const enterGrid = (side: Side) => {
    if (!open) flushSync(() => openAt(side));
    keyboardInGrid.current = true;
    panelRef.current?.querySelector<HTMLButtonElement>('.rdp-day_button[tabindex="0"]')?.focus();
  };

  const onKeyDown = (side: Side) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && open) {
      // Closes the calendar only, not a drawer or dialog the field is in.
      event.stopPropagation();
      cancel();
      return;
    }
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      enterGrid(side);
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

  const onDay = (date: Date) => {
    const side = active;
    const chosen = pickDay(side, dayOf(date), days, picked[other(side)]);
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
    // A click goes on in the other input; the keyboard stays on the grid for the other end.
    if (!keyboardInGrid.current) inputOf(other(side))?.focus();
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

  /** A preset's days within min..max; null when none of them is. */
  const bounded = (range: Pair<Dayjs>): Pair<Dayjs> | null => {
    const [first, last] = [bounds[0] && clockTime(bounds[0]), bounds[1] && clockTime(bounds[1])];
    const start = first && range[0].isBefore(first) ? first : range[0];
    const end = last && range[1].isAfter(last) ? last : range[1];
    return start.isAfter(end) ? null : [start, end];
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
  // While a day is pointed at (or has the keyboard) and the other end is there, the band shows the range
  // as choosing it would leave it; the chosen days stay the grid's selection.
  let [from, to] =
    open && hovered && days[other(active)] !== null
      ? pickDay(active, hovered, days, picked[other(active)])
      : days;
  if (from === null || to === null) [from, to] = [from ?? to, to ?? from];
  const band =
    from !== null && to !== null && from !== to
      ? {
          band_start: asDate(from),
          band_end: asDate(to),
          band_middle: { after: asDate(from), before: asDate(to) },
        }
      : undefined;
  const language = i18n.language;
  const { labels, formatters } = useMemo(() => {
    const monthTitle = (date: Date) => named(date, t('dateRange.monthFormat'));
    return {
      labels: {
        labelDayButton: (date: Date) => named(date, t('dateRange.dayFormat')),
        labelGrid: monthTitle,
        labelWeekday: (date: Date) => named(date, 'dddd'),
      },
      formatters: { formatCaption: monthTitle, formatWeekdayName: (date: Date) => named(date, 'dd') },
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the names change with the language only
  }, [language]);

  const panel = (
    <div
      ref={panelRef}
      className="date-range-panel"
      style={vars}
      role="dialog"
      aria-label={label}
      onBlur={onBlur}
      onMouseDown={(event) => {
        keyboardInGrid.current = false;
        if (!(event.target instanceof HTMLInputElement)) event.preventDefault();
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        // From a day as from the inputs: the calendar closes, not a drawer or dialog around the field.
        event.stopPropagation();
        cancel();
      }}
    >
      <div className="date-range-panel__presets">
        {(Object.keys(PRESETS) as (keyof typeof PRESETS)[]).map((key) => {
          const range = bounded(PRESETS[key](today));
          return (
            <Button
              key={key}
              type="text"
              size="small"
              tabIndex={-1}
              disabled={!range}
              onClick={() => range && onPreset(range)}
            >
              {t(`dateRange.presets.${key}`)}
            </Button>
          );
        })}
      </div>
      <div className="date-range-panel__main" onMouseLeave={() => setHovered(null)}>
        <GridFocus value={keyboardInGrid}>
          <DayPicker
            mode="range"
            selected={{
              from: days[0] ? asDate(days[0]) : undefined,
              to: days[1] ? asDate(days[1]) : undefined,
            }}
            timeZone="UTC"
            today={asDate(todayKey)}
            month={asDate(month.format(DATE))}
            onMonthChange={(date) => setMonth(clockTime(dayOf(date)))}
            startMonth={bounds[0] ? asDate(bounds[0]) : undefined}
            endMonth={bounds[1] ? asDate(bounds[1]) : undefined}
            disabled={[
              ...(bounds[0] ? [{ before: asDate(bounds[0]) }] : []),
              ...(bounds[1] ? [{ after: asDate(bounds[1]) }] : []),
            ]}
            weekStartsOn={(dayjs.Ls[dayjs.locale()]?.weekStart ?? 0) as 0}
            lang={language}
            showOutsideDays
            fixedWeeks
            hideNavigation
            components={COMPONENTS}
            labels={labels}
            formatters={formatters}
            modifiers={band}
            modifiersClassNames={{
              band_start: 'date-range-panel__band-start',
              band_end: 'date-range-panel__band-end',
              band_middle: 'date-range-panel__band',
            }}
            onDayClick={onDay}
            onDayMouseEnter={(date) => setHovered(dayOf(date))}
            onDayFocus={(date) => keyboardInGrid.current && setHovered(dayOf(date))}
          />
        </GridFocus>
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
        onFocus={() => {
          keyboardInGrid.current = false;
          openAt(side);
        }}
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
