import { screen } from '@testing-library/react';

// What tests read of antd's forms and dialogs under jsdom.

/** The form's labels, top to bottom (a row without a label, the buttons', has none). */
export const formLabels = () =>
  [...document.querySelectorAll('form .ant-form-item-label label')]
    .map((label) => label.textContent?.trim())
    .filter(Boolean);

/** The error shown under a field, found by its label. */
export const errorUnder = (label: string) =>
  screen.getByLabelText(label).closest('.ant-form-item')?.querySelector('.ant-form-item-explain')
    ?.textContent;

/** antd names its dialogs with ids jsdom cannot resolve: find the open one by its title. */
export async function dialogTitled(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '.ant-modal-title' });
  return heading.closest('[role=dialog]') as HTMLElement;
}
