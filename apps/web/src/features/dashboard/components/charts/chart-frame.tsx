import { theme } from 'antd';
import { type MouseEvent, type ReactNode, type RefObject, useLayoutEffect, useRef, useState } from 'react';

/** A series (or a slice): its name and colour, as the legend and the tooltip show them. */
export type Swatch = { name: string; color: string };

const LEGEND_HEIGHT = 28;
// Until the box is measured (and in jsdom, which lays nothing out) a chart is drawn this wide.
const FALLBACK_WIDTH = 600;
// The tooltip's distance from the pointer.
const TOOLTIP_GAP = 12;

/**
 * What the Dashboard's charts share: a box as wide as its container, `role="img"` (the figures are also
 * links beside each chart), an optional legend above the drawing, and a tooltip that follows the pointer
 * and stays inside the box. The drawing is an SVG in pixels of the box, so its text keeps its size.
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
  return (
    <div
      ref={box}
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ position: 'relative', cursor: isClickable ? 'pointer' : undefined }}
      onMouseMove={follow}
      // A scroll moves the chart under a still pointer: the browser reports the new element, with no move.
      onMouseOver={follow}
      onMouseLeave={onLeave}
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
