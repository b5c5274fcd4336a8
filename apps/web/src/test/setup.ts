import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, expect, vi } from 'vitest';
import { loadLayoutTexts } from '../i18n/index.ts';

// @testing-library/jest-dom is not a dependency; its one matcher these tests need, so an assertion on an
// element reads as what it checks rather than `toBeTruthy()` on a query that throws anyway.
expect.extend({
  toBeInTheDocument(received: unknown) {
    const isElement = received instanceof Element;
    const pass = isElement && received.ownerDocument.contains(received);
    const shown = isElement ? `<${received.tagName.toLowerCase()}>` : this.utils.printReceived(received);
    return {
      pass,
      message: () =>
        pass
          ? `expected ${shown} not to be in the document`
          : `expected ${shown} to be an element in the document`,
    };
  },
});

interface DomMatchers<R = unknown> {
  toBeInTheDocument: () => R;
}
declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends DomMatchers<T> {}
}

// jsdom has neither; antd's responsive hooks and virtual lists need them.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver = ResizeObserverStub as unknown as typeof ResizeObserver;

// antd measures scrollbars through getComputedStyle with a pseudo element, which jsdom does not implement.
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// Pages render here without the layout, which loads their texts in the console. The signed-in user's schema,
// which the entry loads on demand, is a small chunk in the browser, here a transform that can outlast a
// findBy: loaded once before the tests, as the console has it once signed in.
beforeAll(async () => {
  await Promise.all([loadLayoutTexts(), import('@paydesk/shared/auth/auth.schemas.ts')]);
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
