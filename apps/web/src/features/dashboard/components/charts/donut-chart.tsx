import { theme } from 'antd';
import { useState } from 'react';
import { ChartFrame, focusRing, type Swatch, SwatchMark, useMarks } from './chart-frame.tsx';

export type Slice = Swatch & { value: number };

// As ECharts drew it: radii as shares of half the box's smaller side.
const INNER = 0.45;
const OUTER = 0.72;
// How far the slice under the pointer stands out.
const HOVER_GROWTH = 4;

/** A ring of slices, the first from twelve o'clock clockwise; no labels (the figures are listed beside it). */
export function DonutChart({
  slices,
  label,
  testId,
  height = 200,
  onClick,
}: {
  slices: readonly Slice[];
  label: string;
  testId: string;
  height?: number;
  onClick?: (click: { dataIndex: number }) => void;
}) {
  const { token } = theme.useToken();
  const [active, setActive] = useState<number | null>(null);
  const total = slices.reduce((sum, slice) => sum + slice.value, 0);
  const percent = (value: number) => Number(((value / total) * 100).toFixed(2));
  // Slice i runs from angles[i] to angles[i + 1].
  const angles = slices.reduce(
    (sums, slice) => [...sums, sums.at(-1)! + (slice.value / total) * 2 * Math.PI],
    [0],
  );
  const shown = active === null ? undefined : slices[active];
  const marks = useMarks({ count: slices.length, shown: active, show: setActive });
  const share = (slice: Slice) =>
    `${slice.name}: ${slice.value.toLocaleString('en-US')} (${percent(slice.value)}%)`;

  return (
    <ChartFrame
      label={label}
      testId={testId}
      height={height}
      tooltip={
        shown && (
          <>
            <SwatchMark color={shown.color} />
            {share(shown)}
          </>
        )
      }
      isClickable={onClick !== undefined}
      onLeave={() => setActive(null)}
    >
      {({ width, height: drawingHeight }) => {
        const center = { x: width / 2, y: drawingHeight / 2 };
        const half = Math.min(width, drawingHeight) / 2;
        return (
          total > 0 &&
          slices.map((slice, dataIndex) => {
            const outer =
              half * OUTER + (active === dataIndex || marks.isFocused(dataIndex) ? HOVER_GROWTH : 0);
            return (
              <path
                key={slice.name}
                className="chart-slice"
                d={slicePath(center, half * INNER, outer, angles[dataIndex], angles[dataIndex + 1])}
                fill={slice.color}
                fillRule="evenodd"
                stroke={token.colorBgContainer}
                {...(marks.isFocused(dataIndex) && focusRing(token.colorPrimary))}
                style={{ outline: 'none' }}
                {...marks.focusable(
                  dataIndex,
                  dataIndex,
                  share(slice),
                  onClick && (() => onClick({ dataIndex })),
                )}
                {...marks.pointer(dataIndex)}
                onClick={marks.click(() => onClick?.({ dataIndex }))}
              />
            );
          })
        );
      }}
    </ChartFrame>
  );
}

/** A ring's slice between two angles (radians clockwise from twelve o'clock). */
function slicePath(
  center: { x: number; y: number },
  inner: number,
  outer: number,
  start: number,
  end: number,
): string {
  const at = (radius: number, angle: number) =>
    `${center.x + radius * Math.sin(angle)},${center.y - radius * Math.cos(angle)}`;
  // An arc from a point to itself draws nothing: the whole ring is two circles, the inner one a hole.
  if (end - start >= 2 * Math.PI - 1e-9) {
    const circle = (radius: number) =>
      `M${at(radius, 0)}A${radius},${radius} 0 1 1 ${at(radius, Math.PI)}A${radius},${radius} 0 1 1 ${at(radius, 0)}Z`;
    return circle(outer) + circle(inner);
  }
  const isLarge = end - start > Math.PI ? 1 : 0;
  return (
    `M${at(outer, start)}A${outer},${outer} 0 ${isLarge} 1 ${at(outer, end)}` +
    `L${at(inner, end)}A${inner},${inner} 0 ${isLarge} 0 ${at(inner, start)}Z`
  );
}
