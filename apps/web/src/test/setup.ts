import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { loadLayoutTexts } from '../i18n/index.ts';
import { resetHttpStateForTests } from '../lib/http.ts';
import { forgetMode } from '../stores/mode.ts';
import { server } from './server.ts';

// The mock API (server.ts): a request nobody answers fails the test (msw 3 names it a frame).
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

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
  server.resetHandlers();
  server.events.removeAllListeners();
  resetHttpStateForTests();
  forgetMode();
  localStorage.clear();
  sessionStorage.clear();
});
