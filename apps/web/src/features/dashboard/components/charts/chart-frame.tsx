import { theme } from 'antd';
import {
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';

/** A series (or a slice): its name and colour, as the legend and the tooltip show them. */
export type Swatch = { name: string; color: string };

const LEGEND_HEIGHT = 28;
// Until the box is measured (and in jsdom, which lays nothing out) a chart is drawn this wide.
const FALLBACK_WIDTH = 600;
// The tooltip's distance from the pointer.
const TOOLTIP_GAP = 12;

/**
 * What the Dashboard's charts share: a box as wide as its container, a group named for screen readers (its
 * marks are buttons, see `useMarks`), an optional legend above the drawing, and a tooltip that follows the
 * pointer (a mouse, a pen or a finger) or sits beside the focused mark, and stays inside the box. The
 * drawing is an SVG in pixels of the box, so its text keeps its size.
 */
export function ChartFrame({
  label,
  testId,
  height,
  legend,
  tooltip,
  isClickable,
  onLeave,
  children,
}: {
  /** What the chart shows, for screen readers. */
  label: string;
  testId: string;
  /** The chart's height, legend included. */
  height: number;
  legend?: readonly Swatch[];
  /** What the tooltip shows now; nothing hides it. */
  tooltip: ReactNode;
  isClickable: boolean;
  onLeave: () => void;
  /** The SVG's content, drawn for a box of this size. */
  children: (size: { width: number; height: number }) => ReactNode;
}) {
  const { token } = theme.useToken();
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const [pointer, setPointer] = useState({ x: 0, y: 0 });
  const drawingHeight = height - (legend ? LEGEND_HEIGHT : 0);
  const follow = (event: MouseEvent<HTMLDivElement>) => {
    const { left, top } = event.currentTarget.getBoundingClientRect();
    setPointer({ x: event.clientX - left, y: event.clientY - top });
  };
  const press = (event: PointerEvent<HTMLDivElement>) => {
    follow(event);
    // A finger is held by what it first touched; released, a slide reaches the next day's marks.
    const target = event.target as Element;
    if (target.hasPointerCapture?.(event.pointerId)) target.releasePointerCapture(event.pointerId);
  };
  // A mark focused from the keyboard has the tooltip beside it; one focused by a click or a tap keeps it
  // where the pointer is.
  const focusMark = (event: FocusEvent<HTMLDivElement>) => {
    if (!isFocusVisible(event.target)) return;
    const mark = event.target.getBoundingClientRect();
    const { left, top } = event.currentTarget.getBoundingClientRect();
    setPointer({ x: mark.right - left, y: mark.top - top });
  };
  const isShown = Boolean(tooltip);
  // A finger lifted leaves the tooltip up to be read: a touch anywhere else puts it away.
  useEffect(() => {
    if (!isShown) return;
    const awayFrom = (event: globalThis.PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) onLeave();
    };
    document.addEventListener('pointerdown', awayFrom);
    return () => document.removeEventListener('pointerdown', awayFrom);
  }, [isShown, onLeave]);
  return (
    <div
      ref={box}
      role="group"
      aria-label={label}
      data-testid={testId}
      // A horizontal slide moves the tooltip from day to day; a vertical one still scrolls the page.
      style={{ position: 'relative', cursor: isClickable ? 'pointer' : undefined, touchAction: 'pan-y' }}
      onPointerMove={follow}
      onPointerDown={press}
      // A scroll moves the chart under a still pointer: the browser reports the new element, with no move.
      onPointerOver={follow}
      onPointerLeave={(event) => {
        if (event.pointerType !== 'touch') onLeave();
      }}
      onFocus={focusMark}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) onLeave();
      }}
    >
      {legend && (
        <div
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            justifyContent: 'center',
            columnGap: 16,
            height: LEGEND_HEIGHT,
            fontSize: token.fontSizeSM,
            color: token.colorText,
          }}
        >
          {legend.map((swatch) => (
            <span key={swatch.name}>
              <SwatchMark color={swatch.color} />
              {swatch.name}
            </span>
          ))}
        </div>
      )}
      {/* The viewBox is the measured size: while the box is being resized the drawing scales, never overflows. */}
      <svg
        width="100%"
        height={drawingHeight}
        viewBox={`0 0 ${width} ${drawingHeight}`}
        style={{ display: 'block', overflow: 'visible' }}
      >
        {children({ width, height: drawingHeight })}
      </svg>
      {tooltip && <Tooltip pointer={pointer}>{tooltip}</Tooltip>}
    </div>
  );
}

/** A series' colour before its name. */
export function SwatchMark({ color }: { color: string }) {
  return (
    <span
      aria-hidden
      style={{
        display: 'inline-block',
        width: 10,
        height: 10,
        borderRadius: 2,
        marginRight: 6,
        background: color,
      }}
    />
  );
}

/** What a chart's marks (its bars, points or slices) are told. */
type MarkOptions = {
  /** The focusable marks, in the order the arrow keys go through them. */
  count: number;
  /** What the tooltip shows now (a day, a slice), null for nothing. */
  shown: number | null;
  show: (shown: number) => void;
};

/**
 * The marks' keyboard and touch. A chart is one tab stop: the arrow keys (and Home, End) move between its
 * marks, a focused mark shows the tooltip its hover shows, and Enter or Space opens what its click opens.
 * On a touch screen the first tap on a mark shows its tooltip and the second opens it, since a finger
 * cannot hover.
 */
export function useMarks({ count, shown, show }: MarkOptions) {
  const [tabStop, setTabStop] = useState(0);
  const [focused, setFocused] = useState<number | null>(null);
  const nodes = useRef<(SVGElement | null)[]>([]);
  const isOpening = useRef(true);
  return {
    /** Hover, touch and a finger's slide show `key` (what the tooltip shows for this target). */
    pointer: (key: number) => ({
      onPointerEnter: (event: PointerEvent<SVGElement>) => {
        if (event.pointerType !== 'touch') show(key);
      },
      onPointerMove: () => show(key),
      onPointerDown: (event: PointerEvent<SVGElement>) => {
        isOpening.current = event.pointerType !== 'touch' || shown === key;
        show(key);
      },
    }),
    /** A click opens, unless it is the tap that has just shown the tooltip. */
    click:
      <E,>(open: (event: E) => void) =>
      (event: E) => {
        if (isOpening.current) open(event);
        isOpening.current = true;
      },
    /** The `index`th mark: focusable, named `label`; it shows `key` and opens with `open`. */
    focusable: (index: number, key: number, label: string, open?: () => void) => ({
      ref: (node: SVGElement | null) => {
        nodes.current[index] = node;
      },
      tabIndex: index === Math.min(tabStop, count - 1) ? 0 : -1,
      role: open ? 'button' : 'img',
      'aria-label': label,
      onFocus: () => {
        setTabStop(index);
        setFocused(index);
        show(key);
      },
      onBlur: () => setFocused(null),
      onKeyDown: (event: KeyboardEvent<SVGElement>) => {
        if (open && (event.key === 'Enter' || event.key === ' ')) {
          event.preventDefault();
          open();
          return;
        }
        const next = ARROWS[event.key]?.(index, count);
        if (next === undefined) return;
        event.preventDefault();
        nodes.current[Math.max(0, Math.min(count - 1, next))]?.focus();
      },
    }),
    /** Whether the `index`th mark has the focus (it is drawn outlined). */
    isFocused: (index: number) => focused === index,
  };
}

const ARROWS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index) => index + 1,
  ArrowDown: (index) => index + 1,
  ArrowLeft: (index) => index - 1,
  ArrowUp: (index) => index - 1,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/** The outline of a focused mark (the browsers' own focus ring does not follow an SVG shape). */
export function focusRing(color: string) {
  return { stroke: color, strokeWidth: 2 };
}

/** Whether the browser shows a focus ring (the keyboard moved the focus); where it cannot tell, it does. */
function isFocusVisible(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true;
  }
}

/** The box's width, following it as it resizes. */
function useWidth(box: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const node = box.current!;
    // The observer reports the size it starts with too, before the first paint.
    const observer = new ResizeObserver(() => setWidth(node.clientWidth));
    observer.observe(node);
    return () => observer.disconnect();
  }, [box]);
  return width || FALLBACK_WIDTH;
}

/** Beside the pointer: on its left near the box's right edge, above it near the bottom. */
function Tooltip({ pointer, children }: { pointer: { x: number; y: number }; children: ReactNode }) {
  const { token } = theme.useToken();
  const tip = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const node = tip.current!;
    const box = node.parentElement!;
    const isRoomRight = pointer.x + TOOLTIP_GAP + node.offsetWidth <= box.clientWidth;
    const isRoomBelow = pointer.y + TOOLTIP_GAP + node.offsetHeight <= box.clientHeight;
    const left = isRoomRight ? pointer.x + TOOLTIP_GAP : pointer.x - TOOLTIP_GAP - node.offsetWidth;
    const top = isRoomBelow ? pointer.y + TOOLTIP_GAP : pointer.y - TOOLTIP_GAP - node.offsetHeight;
    node.style.left = `${Math.max(0, left)}px`;
    node.style.top = `${Math.max(0, top)}px`;
  });
  return (
    <div
      ref={tip}
      role="tooltip"
      style={{
        position: 'absolute',
        zIndex: 1,
        pointerEvents: 'none',
        whiteSpace: 'nowrap',
        padding: `${token.paddingXS}px ${token.paddingSM}px`,
        background: token.colorBgElevated,
        boxShadow: token.boxShadowSecondary,
        borderRadius: token.borderRadius,
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
      }}
    >
      {children}
    </div>
  );
}
