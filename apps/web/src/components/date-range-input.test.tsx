import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, Form } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../i18n/dayjs-locale.ts';
import { changeLanguage } from '../i18n/index.ts';
import { type DateRange, DateRangeInput } from './date-range-input.tsx';

configure({ asyncUtilTimeout: 10_000 });

const DATE_TIME = 'YYYY-MM-DD HH:mm:ss';
const shown = (range: DateRange | null | undefined, format = DATE_TIME) =>
  range ? range.map((date: Dayjs) => date.format(format)) : range;

/** The field as a page has it: the value is the form's; `changes` is what reached it. */
function Field({
  initial = null,
  withTime = false,
  // The calendar's today (2026-03-15 at 12:00 UTC) is another day east of UTC+12.
  timeZone = 'UTC',
  min,
  max,
  changes,
}: {
  initial?: DateRange | null;
  withTime?: boolean;
  timeZone?: string;
  min?: Dayjs | null;
  max?: Dayjs | null;
  changes: (DateRange | null)[];
}) {
  const [value, setValue] = useState<DateRange | null>(initial);
  return (
    <>
      <DateRangeInput
        value={value}
        onChange={(next) => {
          changes.push(next);
          setValue(next);
        }}
        withTime={withTime}
        timeZone={timeZone}
        min={min}
        max={max}
        placeholder={['Start time', 'End time']}
        aria-label="Time"
      />
      {/* What follows the field on a page (the filter bar's Search). */}
      <button type="button">Next</button>
    </>
  );
}

const start = () => screen.getByRole('textbox', { name: 'Time (start)' }) as HTMLInputElement;
const end = () => screen.getByRole('textbox', { name: 'Time (end)' }) as HTMLInputElement;
const calendar = () => screen.findByRole('dialog', { name: 'Time' });
const user = () => userEvent.setup({ delay: null });

beforeEach(async () => {
  // Only Date is fake: the calendar's today is 2026-03-15 (a Sunday) in UTC, antd's timers stay real.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-03-15T12:00:00Z'));
  await changeLanguage('en');
});
afterEach(() => vi.useRealTimers());

describe('DateRangeInput', { timeout: 30_000 }, () => {
  it('takes a typed date and time range on Enter, the earlier one first', async () => {
    const changes: (DateRange | null)[] = [];
    render(<Field withTime changes={changes} />);
    await user().type(start(), '2026-03-05 08:00:00{Enter}');
    // Half a range: Enter goes on to the end rather than taking it.
    expect(changes).toEqual([]);
    expect(document.activeElement).toBe(end());
    await user().type(end(), '2026-03-01 18:30:00{Enter}');
    expect(changes.map((range) => shown(range))).toEqual([['2026-03-01 18:30:00', '2026-03-05 08:00:00']]);
    expect([start().value, end().value]).toEqual(['2026-03-01 18:30:00', '2026-03-05 08:00:00']);
  });

  it('reads a day typed alone in a time range as the whole of it', async () => {
    const changes: (DateRange | null)[] = [];
    render(<Field withTime changes={changes} />);
    await user().type(start(), '2026-03-02');
    await user().type(end(), '2026-03-04');
    await user().tab(); // leaving the field takes a complete range
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Next' }));
    expect(changes.map((range) => shown(range))).toEqual([['2026-03-02 00:00:00', '2026-03-04 23:59:59']]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows a text that is no date as wrong, does not take it, and puts the value back on leaving', async () => {
    const changes: (DateRange | null)[] = [];
    render(<Field initial={[dayjs('2026-03-01'), dayjs('2026-03-02')]} changes={changes} />);
    const group = screen.getByRole('group', { name: 'Time' });
    await user().clear(start());
    await user().type(start(), '2026-02-30{Enter}');
    expect(start().getAttribute('aria-invalid')).toBe('true');
    expect(group.className).toContain('date-range-input--invalid');
    await user().type(start(), 'x');
    expect(start().value).toBe('2026-02-30x');
    await user().tab();
    await user().tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Next' }));
    expect(changes).toEqual([]);
    expect([start().value, end().value]).toEqual(['2026-03-01', '2026-03-02']);
    expect(start().hasAttribute('aria-invalid')).toBe(false);
  });

  it('does not call a date on its way wrong, only one that cannot become one', async () => {
    render(<Field withTime changes={[]} />);
    const typed = async (text: string) => {
      await user().clear(start());
      await user().type(start(), text);
      return start().getAttribute('aria-invalid') === 'true';
    };
    expect(await typed('2026-02-28 1')).toBe(false);
    expect(await typed('2026-13')).toBe(true);
    expect(await typed('2026-02-30 1')).toBe(true);
    expect(await typed('2026-02-28 24')).toBe(true);
    expect(await typed('2026/')).toBe(true);
  });

  it('takes two clicked days as a date range, the earlier first, and closes', async () => {
    const changes: (DateRange | null)[] = [];
    render(<Field changes={changes} />);
    await user().click(start());
    const panel = await calendar();
    expect(within(panel).getByText('March 2026')).toBeInTheDocument();
    expect(
      within(panel).getByRole('button', { name: 'Sunday, March 15, 2026' }).getAttribute('aria-current'),
    ).toBe('date');
    await user().click(within(panel).getByRole('button', { name: 'Thursday, March 12, 2026' }));
    expect(start().value).toBe('2026-03-12');
    expect(document.activeElement).toBe(end());
    await user().click(within(panel).getByRole('button', { name: 'Tuesday, March 3, 2026' }));
    expect(changes.map((range) => shown(range, 'YYYY-MM-DD'))).toEqual([['2026-03-03', '2026-03-12']]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect([start().value, end().value]).toEqual(['2026-03-03', '2026-03-12']);
  });

  it('gives clicked days of a time range 00:00:00 and 23:59:59, changed in the time fields, taken on OK', async () => {
    const changes: (DateRange | null)[] = [];
    render(<Field withTime changes={changes} />);
    await user().click(start());
    const panel = await calendar();
    const startTime = within(panel).getByRole('textbox', { name: 'Start time' }) as HTMLInputElement;
    const endTime = within(panel).getByRole('textbox', { name: 'End time' }) as HTMLInputElement;
    expect([startTime.value, endTime.value]).toEqual(['00:00:00', '23:59:59']);
    expect(within(panel).getByRole('button', { name: 'OK' })).toHaveProperty('disabled', true);
    await user().click(within(panel).getByRole('button', { name: 'Thursday, March 5, 2026' }));
    await user().click(within(panel).getByRole('button', { name: 'Friday, March 6, 2026' }));
    expect([start().value, end().value]).toEqual(['2026-03-05 00:00:00', '2026-03-06 23:59:59']);
    expect(changes).toEqual([]);
    await user().clear(endTime);
    await user().type(endTime, '12:00:00');
    expect(end().value).toBe('2026-03-06 12:00:00');
    await user().click(within(panel).getByRole('button', { name: 'OK' }));
    expect(changes.map((range) => shown(range))).toEqual([['2026-03-05 00:00:00', '2026-03-06 12:00:00']]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('takes the chosen range once when the focus leaves from a time field', async () => {
    const changes: (DateRange | null)[] = [];
    render(<Field withTime changes={changes} />);
    await user().click(start());
    const panel = await calendar();
    await user().click(within(panel).getByRole('button', { name: 'Thursday, March 5, 2026' }));
    await user().click(within(panel).getByRole('button', { name: 'Friday, March 6, 2026' }));
    await user().click(within(panel).getByRole('textbox', { name: 'End time' }));
    await user().click(screen.getByRole('button', { name: 'Next' }));
    expect(changes.map((range) => shown(range))).toEqual([['2026-03-05 00:00:00', '2026-03-06 23:59:59']]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('clears to null', async () => {
    const changes: (DateRange | null)[] = [];
    render(<Field initial={[dayjs('2026-03-01'), dayjs('2026-03-02')]} changes={changes} />);
    await user().click(screen.getByRole('button', { name: 'Clear' }));
    expect(changes).toEqual([null]);
    expect([start().value, end().value]).toEqual(['', '']);
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
  });

  it("keeps a clock time as typed where the browser's own zone skips it (daylight saving)", async () => {
    try {
      // New York skips 02:00-03:00 on 2026-03-08; Santiago skips midnight on 2026-09-06.
      vi.stubEnv('TZ', 'America/New_York');
      const changes: (DateRange | null)[] = [];
      const { unmount } = render(<Field withTime changes={changes} />);
      await user().type(start(), '2026-03-08 02:30:00{Enter}');
      await user().type(end(), '2026-03-08 02:45:00{Enter}');
      expect(changes.map((range) => shown(range))).toEqual([['2026-03-08 02:30:00', '2026-03-08 02:45:00']]);
      unmount();

      vi.stubEnv('TZ', 'America/Santiago');
      changes.length = 0;
      // September is after the calendar's today: no limit here.
      render(<Field withTime max={null} changes={changes} />);
      await user().type(start(), '2026-09-06');
      await user().type(end(), '2026-09-06');
      await user().tab();
      expect(changes.map((range) => shown(range))).toEqual([['2026-09-06 00:00:00', '2026-09-06 23:59:59']]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('opens on the month of a date pasted while the calendar is closed, with its time', async () => {
    render(
      <Field
        withTime
        max={null}
        initial={[dayjs('2026-03-01'), dayjs('2026-03-02 23:59:59')]}
        changes={[]}
      />,
    );
    await user().click(start());
    await user().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Pasted over the whole text, the calendar still closed.
    start().setSelectionRange(0, start().value.length);
    await user().paste('2027-04-10 10:20:30');
    const panel = await calendar();
    expect(within(panel).getByText(/\d{4}/).textContent).toBe('April 2027');
    expect(within(panel).getByRole('textbox', { name: 'Start time' })).toHaveProperty('value', '10:20:30');
  });

  it('goes through months and years, with the month named in the language and its week start', async () => {
    render(<Field max={null} changes={[]} />);
    await user().click(start());
    const panel = await calendar();
    const title = () => within(panel).getByText(/\d{4}/).textContent;
    const columns = () =>
      within(panel)
        // Hidden from screen readers, which hear each day's full name.
        .getAllByRole('columnheader', { hidden: true })
        .map((th) => th.textContent);
    expect(columns()).toEqual(['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa']);
    // The first day of the grid, as a screen reader names it.
    const firstDay = () =>
      within(panel).getAllByRole('button', { name: /2026/ })[0].getAttribute('aria-label');
    // March 2026 starts on a Sunday: the grid's first day is the 1st.
    expect(firstDay()).toBe('Sunday, March 1, 2026');
    await user().click(within(panel).getByRole('button', { name: 'Next month' }));
    expect(title()).toBe('April 2026');
    await user().click(within(panel).getByRole('button', { name: 'Next year' }));
    expect(title()).toBe('April 2027');
    await user().click(within(panel).getByRole('button', { name: 'Previous month' }));
    await user().click(within(panel).getByRole('button', { name: 'Previous month' }));
    expect(title()).toBe('February 2027');
    await user().click(within(panel).getByRole('button', { name: 'Previous year' }));
    expect(title()).toBe('February 2026');
    // The input keeps the focus while the calendar is used.
    expect(document.activeElement).toBe(start());

    await act(() => changeLanguage('zh-cn'));
    expect(title()).toBe('2026年2月');
    expect(columns()).toEqual(['一', '二', '三', '四', '五', '六', '日']);
    // February 2026 starts on a Sunday: Monday-first, the grid opens on Monday 26 January, named as
    // each language names a day.
    expect(firstDay()).toBe('2026年1月26日 星期一');
    await act(() => changeLanguage('vi'));
    expect(firstDay()).toBe('Ngày 26 tháng 1 năm 2026 (thứ hai)');
  });

  it('closes on Escape and puts back what was there', async () => {
    const changes: (DateRange | null)[] = [];
    render(<Field initial={[dayjs('2026-03-01'), dayjs('2026-03-02')]} changes={changes} />);
    await user().click(start());
    const panel = await calendar();
    await user().click(within(panel).getByRole('button', { name: 'Tuesday, March 10, 2026' }));
    expect(start().value).toBe('2026-03-10');
    await user().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect([start().value, end().value]).toEqual(['2026-03-01', '2026-03-02']);
    expect(changes).toEqual([]);
  });

  it("marks today and starts the presets in the user's time zone", async () => {
    const changes: (DateRange | null)[] = [];
    // 12:00 UTC on the 15th is already the 16th at +14:00.
    render(<Field withTime timeZone="+14:00" changes={changes} />);
    await user().click(start());
    const panel = await calendar();
    expect(
      within(panel).getByRole('button', { name: 'Monday, March 16, 2026' }).getAttribute('aria-current'),
    ).toBe('date');
    await user().click(within(panel).getByRole('button', { name: 'Last 7 days' }));
    expect(changes.map((range) => shown(range))).toEqual([['2026-03-10 00:00:00', '2026-03-16 23:59:59']]);
  });

  it('is a grid the arrow keys move through, where Enter chooses the ends of the range', async () => {
    const changes: (DateRange | null)[] = [];
    render(<Field max={null} changes={changes} />);
    await user().click(start());
    const panel = await calendar();
    expect(within(panel).getByRole('grid', { name: 'March 2026' })).toBeInTheDocument();
    const focused = () => document.activeElement?.getAttribute('aria-label');
    // ArrowDown goes from the input into the days, on today when nothing is chosen.
    await user().keyboard('{ArrowDown}');
    expect(focused()).toBe('Sunday, March 15, 2026');
    await user().keyboard('{ArrowLeft}{ArrowLeft}{ArrowUp}');
    expect(focused()).toBe('Friday, March 6, 2026');
    await user().keyboard('{PageUp}');
    expect(focused()).toBe('Friday, February 6, 2026');
    expect(within(panel).getByRole('grid', { name: 'February 2026' })).toBeInTheDocument();
    await user().keyboard('{PageDown}{Enter}');
    expect(start().value).toBe('2026-03-06');
    expect(changes).toEqual([]);
    // The keyboard stays in the grid for the other end.
    expect(focused()).toBe('Friday, March 6, 2026');
    await user().keyboard('{ArrowDown}{ArrowRight}{Enter}');
    expect(changes.map((range) => shown(range, 'YYYY-MM-DD'))).toEqual([['2026-03-06', '2026-03-14']]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The focus is back in the field, where Enter goes on to the form.
    expect([start(), end()]).toContain(document.activeElement);
  });

  it('offers no day after today unless told, nor before its first day', async () => {
    const changes: (DateRange | null)[] = [];
    render(<Field min={dayjs('2026-03-03')} changes={changes} />);
    await user().click(start());
    const panel = await calendar();
    expect(within(panel).getByRole('button', { name: 'Monday, March 16, 2026' })).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Monday, March 2, 2026' })).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Next month' })).toBeDisabled();
    expect(within(panel).getByRole('button', { name: 'Previous month' })).toBeDisabled();
    // The keyboard stops at the last day there is.
    await user().keyboard('{ArrowDown}{ArrowRight}{ArrowDown}');
    expect(document.activeElement).toHaveAccessibleName('Sunday, March 15, 2026');
    await user().keyboard('{Escape}');
    // Typed, a day out of bounds is wrong and not taken.
    await user().type(start(), '2026-03-16{Enter}');
    expect(start()).toHaveAttribute('aria-invalid', 'true');
    await user().clear(start());
    await user().type(start(), '2026-03-02{Enter}');
    expect(start()).toHaveAttribute('aria-invalid', 'true');
    await user().clear(start());
    // "This month" ends today.
    await user().click(within(await calendar()).getByRole('button', { name: 'This month' }));
    expect(changes.map((range) => shown(range, 'YYYY-MM-DD'))).toEqual([['2026-03-03', '2026-03-15']]);
  });

  it('works as a field of an antd Form, disabled with it', async () => {
    const finished = vi.fn();
    const { rerender } = render(<FormWith disabled={false} onFinish={finished} />);
    await user().type(start(), '2026-03-01');
    await user().type(end(), '2026-03-02{Enter}');
    await waitFor(() => expect(finished).toHaveBeenCalledTimes(1));
    expect(shown(finished.mock.calls[0][0].range, 'YYYY-MM-DD')).toEqual(['2026-03-01', '2026-03-02']);
    expect(start().id).toBe('range');
    rerender(<FormWith disabled onFinish={finished} />);
    expect(start()).toHaveProperty('disabled', true);
    expect(end()).toHaveProperty('disabled', true);
  });
});

function FormWith({ disabled, onFinish }: { disabled: boolean; onFinish: (values: unknown) => void }) {
  return (
    <Form disabled={disabled} onFinish={onFinish}>
      <Form.Item name="range">
        <DateRangeInput aria-label="Time" />
      </Form.Item>
      <Button htmlType="submit">Search</Button>
    </Form>
  );
}
