import { useSyncExternalStore } from 'react';

/** A small external store: state outside React, read in components through a selector. */
export function createStore<T extends object>(initial: T) {
  let state = initial;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  return {
    get: (): T => state,
    set: (update: Partial<T> | ((current: T) => T)): void => {
      state = typeof update === 'function' ? update(state) : { ...state, ...update };
      listeners.forEach((listener) => listener());
    },
    subscribe,
    /** The selector must return a primitive or a reference kept in the state. */
    useSelector: <S>(selector: (current: T) => S): S =>
      useSyncExternalStore(subscribe, () => selector(state)),
  };
}
