import { DEMO, expect, logIn, test } from './fixtures.ts';

// The date range calendar from the keyboard alone, on a list page: into the grid, along its days with the
// arrow keys, the two ends with Enter, and the list's URL filter follows.

/** The day `offset` days from today in the demo user's zone (the browser's too), as "YYYY-MM-DD". */
const day = (offset: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(
    new Date(Date.now() + offset * 86_400_000),
  );

test('a date range is chosen on the calendar with the keyboard and filters the daily reports (en)', async ({
  page,
}) => {
  await logIn(page, DEMO.ROOT);
  await page.goto('/fund/dailyReport');
  const start = page.getByRole('textbox', { name: 'Date (start)' });
  const end = page.getByRole('textbox', { name: 'Date (end)' });
  await start.click();
  const calendar = page.getByRole('dialog', { name: 'Date' });
  await expect(calendar.getByRole('grid')).toBeVisible();
  const focused = page.locator(':focus');

  // ArrowDown from the input goes to today; no day after it can be chosen.
  await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('aria-current', 'date');
  await expect(calendar.locator('button[aria-current="date"]')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(focused).toHaveAttribute('aria-current', 'date');

  // A week back, Enter: the start; two days on, Enter: the end, and the calendar closes.
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(start).toHaveValue(day(-7));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(calendar).toBeHidden();
  await expect(start).toHaveValue(day(-7));
  await expect(end).toHaveValue(day(-5));

  // Back in the field, Enter searches: the range is the URL's filter.
  await page.keyboard.press('Enter');
  await expect
    .poll(() => Object.fromEntries(new URL(page.url()).searchParams))
    .toMatchObject({ start_date: day(-7), end_date: day(-5) });
});
