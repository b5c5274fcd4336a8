import { theme } from 'antd';
import { type MouseEvent, useState } from 'react';
import { ChartFrame, focusRing, type Swatch, SwatchMark, useMarks } from './chart-frame.tsx';
import { niceTicks } from './nice-ticks.ts';

/** A series of values, one per day; null is a day without one (a gap in a line). */
export type DaySeries = Swatch & { values: readonly (number | null)[] };
/** The series and the day a click landed on. */
export type DayClick = { seriesIndex: number; dataIndex: number };

type DayChartProps = {
  /** The days' labels on the horizontal axis (`03-05`). */
  categories: readonly string[];
  series: readonly DaySeries[];
  /** The value axis' top (100 for a rate); by default the largest value rounded up to a nice step. */
  max?: number;
  /** A value axis label (`1,000`, `50%`). */
  formatTick?: (value: number) => string;
  /** A value in the tooltip. */
  formatValue: (value: number | null) => string;
  label: string;
  testId: string;
  height?: number;
  onClick?: (click: DayClick) => void;
};

/** Bars side by side for each day, one per series. */
export function BarChart(props: DayChartProps) {
  return <DayChart kind="bar" {...props} />;
}

/** A line per series; every value is a point, so a day between two days without one still shows. */
export function LineChart(props: DayChartProps) {
  return <DayChart kind="line" {...props} />;
}

const MARGIN = { top: 8, right: 16, bottom: 24 };
// SVG text is measured only once drawn, so label widths are estimated: digits, ',', '.' and '-' are
// under 0.6 em in the console's fonts, '%' is wider.
const CHAR_WIDTH = 0.62;
// The space between two day labels.
const LABEL_GAP = 12;
// As ECharts drew them: the bars take 80% of a day's width, 30% of a bar's width apart, 24 px at most.
const BARS_SHARE = 0.8;
const BAR_GAP = 0.3;
const BAR_MAX_WIDTH = 24;
const POINT_RADIUS = 3.5;

const formatNumber = (value: number) => value.toLocaleString('en-US');

function DayChart({
  kind,
  categories,
  series,
  max,
  formatTick = formatNumber,
  formatValue,
  label,
  testId,
  height = 260,
  onClick,
}: DayChartProps & { kind: 'bar' | 'line' }) {
  const { token } = theme.useToken();
  const [active, setActive] = useState<number | null>(null);
  const fontSize = token.fontSizeSM;
  const textWidth = (text: string) => text.length * fontSize * CHAR_WIDTH;
  const ticks = niceTicks(max ?? Math.max(0, ...series.flatMap((s) => s.values.map((value) => value ?? 0))));
  const tickLabels = ticks.map(formatTick);
  const top = ticks.at(-1)!;
  // The marks the keyboard goes through, day by day: every bar, or every point (a day without a value has none).
  const order = categories.flatMap((_, dataIndex) =>
    series.flatMap((s, seriesIndex) =>
      kind === 'bar' || s.values[dataIndex] != null ? [{ seriesIndex, dataIndex }] : [],
    ),
  );
  const keyboard = useMarks({ count: order.length, shown: active, show: setActive });
  const nameOf = ({ seriesIndex, dataIndex }: DayClick) =>
    `${categories[dataIndex]} ${series[seriesIndex].name}: ${formatValue(series[seriesIndex].values[dataIndex] ?? null)}`;

  const tooltip = active !== null && (
    <>
      <div style={{ fontWeight: token.fontWeightStrong }}>{categories[active]}</div>
      {series.map((s) => (
        <div key={s.name} style={{ display: 'flex', justifyContent: 'space-between', gap: 24 }}>
          <span>
            <SwatchMark color={s.color} />
            {s.name}
          </span>
          <span style={{ fontWeight: token.fontWeightStrong, fontVariantNumeric: 'tabular-nums' }}>
            {formatValue(s.values[active] ?? null)}
          </span>
        </div>
      ))}
    </>
  );

  return (
    <ChartFrame
      label={label}
      testId={testId}
      height={height}
      legend={series}
      tooltip={tooltip}
      isClickable={onClick !== undefined}
      onLeave={() => setActive(null)}
    >
      {({ width, height: drawingHeight }) => {
        const left = Math.ceil(Math.max(...tickLabels.map(textWidth))) + 8;
        const right = Math.max(left, width - MARGIN.right);
        const bottom = drawingHeight - MARGIN.bottom;
        const band = (right - left) / Math.max(1, categories.length);
        const plot: Plot = {
          top: MARGIN.top,
          bottom,
          band,
          columnLeft: (index) => left + band * index,
          x: (index) => left + band * (index + 0.5),
          y: (value) => bottom - (value / top) * (bottom - MARGIN.top),
        };
        // Crowded days (30 in a narrow card) label every second, third... day from the first.
        const labelWidth = Math.max(0, ...categories.map(textWidth)) + LABEL_GAP;
        const labelEvery = Math.max(1, Math.ceil(labelWidth / band));
        const marks = {
          plot,
          days: categories.length,
          series,
          active,
          order,
          marks: keyboard,
          nameOf,
          onClick,
        };
        return (
          <>
            <g fontSize={fontSize} fill={token.colorTextSecondary}>
              {ticks.map((tick, i) => (
                <g key={tick}>
                  <line
                    x1={left}
                    x2={right}
                    y1={plot.y(tick)}
                    y2={plot.y(tick)}
                    stroke={tick === 0 ? token.colorBorder : token.colorBorderSecondary}
                    shapeRendering="crispEdges"
                  />
                  <text x={left - 8} y={plot.y(tick)} dy="0.32em" textAnchor="end">
                    {tickLabels[i]}
                  </text>
                </g>
              ))}
              {categories.map(
                (category, i) =>
                  i % labelEvery === 0 && (
                    <text key={i} x={plot.x(i)} y={bottom + 8} dy="0.71em" textAnchor="middle">
                      {category}
                    </text>
                  ),
              )}
            </g>
            {kind === 'bar' ? <Bars {...marks} /> : <Lines {...marks} />}
          </>
        );
      }}
    </ChartFrame>
  );
}

/** Where things go: the plot's top and bottom, a day's width, its left edge and centre, a value's height. */
type Plot = {
  top: number;
  bottom: number;
  band: number;
  columnLeft: (index: number) => number;
  x: (index: number) => number;
  y: (value: number) => number;
};

type MarksProps = {
  plot: Plot;
  days: number;
  series: readonly DaySeries[];
  active: number | null;
  /** The focusable marks in the keyboard's order. */
  order: readonly DayClick[];
  marks: ReturnType<typeof useMarks>;
  /** A mark's name for screen readers: its day, series and value. */
  nameOf: (mark: DayClick) => string;
  onClick: ((click: DayClick) => void) | undefined;
};

/** The focusable props of the mark of `seriesIndex` on `dataIndex`. */
function focusableOf({ order, marks, nameOf, onClick }: MarksProps, seriesIndex: number, dataIndex: number) {
  const index = order.findIndex((mark) => mark.seriesIndex === seriesIndex && mark.dataIndex === dataIndex);
  const mark = { seriesIndex, dataIndex };
  return {
    props: marks.focusable(index, dataIndex, nameOf(mark), onClick && (() => onClick(mark))),
    isFocused: marks.isFocused(index),
  };
}

function Bars(props: MarksProps) {
  const { plot, days, series, active, marks, onClick } = props;
  const { token } = theme.useToken();
  const groupShare = series.length + (series.length - 1) * BAR_GAP;
  const barWidth = Math.max(1, Math.min(BAR_MAX_WIDTH, (plot.band * BARS_SHARE) / groupShare));
  return Array.from({ length: days }, (_, dataIndex) => {
    const groupLeft = plot.x(dataIndex) - (barWidth * groupShare) / 2;
    return (
      <g key={dataIndex} {...marks.pointer(dataIndex)}>
        <rect
          className="chart-day"
          x={plot.columnLeft(dataIndex)}
          y={plot.top}
          width={plot.band}
          height={plot.bottom - plot.top}
          fill={active === dataIndex ? token.colorFillTertiary : 'transparent'}
        />
        {series.map((s, seriesIndex) => {
          const value = s.values[dataIndex] ?? 0;
          const barX = groupLeft + seriesIndex * barWidth * (1 + BAR_GAP);
          // A small amount beside a large one still shows: at least a pixel.
          const barHeight = value > 0 ? Math.max(1, plot.bottom - plot.y(value)) : 0;
          const { props: focusable, isFocused } = focusableOf(props, seriesIndex, dataIndex);
          return (
            // The bar's whole column is its target: a low bar is as easy to click as a tall one.
            <g
              key={s.name}
              {...focusable}
              style={{ outline: 'none' }}
              onClick={marks.click(() => onClick?.({ seriesIndex, dataIndex }))}
            >
              <rect
                x={barX}
                y={plot.top}
                width={barWidth}
                height={plot.bottom - plot.top}
                fill="transparent"
                {...(isFocused && focusRing(token.colorPrimary))}
              />
              <rect
                className="chart-bar"
                x={barX}
                y={plot.bottom - barHeight}
                width={barWidth}
                height={barHeight}
                fill={s.color}
              />
            </g>
          );
        })}
      </g>
    );
  });
}

function Lines(props: MarksProps) {
  const { plot, days, series, active, marks, onClick } = props;
  const { token } = theme.useToken();
  // A click on a day's column beside the points: the series whose point of that day is nearest.
  const clickDay = (event: MouseEvent<SVGRectElement>, dataIndex: number) => {
    const pointerY = event.clientY - event.currentTarget.ownerSVGElement!.getBoundingClientRect().top;
    const [nearest] = series
      .flatMap((s, seriesIndex) => {
        const value = s.values[dataIndex] ?? null;
        return value === null ? [] : [{ seriesIndex, distance: Math.abs(plot.y(value) - pointerY) }];
      })
      .sort((a, b) => a.distance - b.distance);
    if (nearest) onClick?.({ seriesIndex: nearest.seriesIndex, dataIndex });
  };
  return (
    <>
      {Array.from({ length: days }, (_, dataIndex) => (
        <rect
          key={dataIndex}
          className="chart-day"
          x={plot.columnLeft(dataIndex)}
          y={plot.top}
          width={plot.band}
          height={plot.bottom - plot.top}
          fill="transparent"
          {...marks.pointer(dataIndex)}
          onClick={marks.click((event: MouseEvent<SVGRectElement>) => clickDay(event, dataIndex))}
        />
      ))}
      {active !== null && (
        <line
          x1={plot.x(active)}
          x2={plot.x(active)}
          y1={plot.top}
          y2={plot.bottom}
          stroke={token.colorBorder}
          strokeDasharray="4 4"
          pointerEvents="none"
        />
      )}
      {series.map((s, seriesIndex) => (
        <g key={s.name} stroke={s.color} strokeWidth={2}>
          {runs(s.values)
            .filter((run) => run.length > 1)
            .map((run) => (
              <path
                key={run[0].index}
                d={run.map((p, i) => `${i ? 'L' : 'M'}${plot.x(p.index)},${plot.y(p.value)}`).join('')}
                fill="none"
                strokeLinejoin="round"
                pointerEvents="none"
              />
            ))}
          {s.values.map((value, dataIndex) => {
            if (value === null) return null;
            const { props: focusable, isFocused } = focusableOf(props, seriesIndex, dataIndex);
            return (
              <g key={dataIndex}>
                {isFocused && (
                  <circle
                    cx={plot.x(dataIndex)}
                    cy={plot.y(value)}
                    r={POINT_RADIUS + 5}
                    fill="none"
                    {...focusRing(token.colorPrimary)}
                    pointerEvents="none"
                  />
                )}
                <circle
                  className="chart-point"
                  cx={plot.x(dataIndex)}
                  cy={plot.y(value)}
                  r={active === dataIndex ? POINT_RADIUS + 1.5 : POINT_RADIUS}
                  fill={token.colorBgContainer}
                  style={{ outline: 'none' }}
                  {...focusable}
                  {...marks.pointer(dataIndex)}
                  onClick={marks.click(() => onClick?.({ seriesIndex, dataIndex }))}
                />
              </g>
            );
          })}
        </g>
      ))}
    </>
  );
}

/** The stretches of consecutive days with a value. */
function runs(values: readonly (number | null)[]): { index: number; value: number }[][] {
  const stretches: { index: number; value: number }[][] = [];
  values.forEach((value, index) => {
    if (value === null) return;
    const last = stretches.at(-1);
    if (last && last.at(-1)!.index === index - 1) last.push({ index, value });
    else stretches.push([{ index, value }]);
  });
  return stretches;
}
