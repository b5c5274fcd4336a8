import { describe, expect, it } from 'vitest';

describe('toBeInTheDocument', () => {
  it('passes for an element in the document and fails for a detached one or a non-element', () => {
    const shown = document.body.appendChild(document.createElement('p'));
    expect(shown).toBeInTheDocument();
    expect(document.createElement('p')).not.toBeInTheDocument();
    expect(() => expect(null).toBeInTheDocument()).toThrow(/to be an element in the document/);
    shown.remove();
  });
});
