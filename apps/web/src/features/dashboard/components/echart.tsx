import type { ECharts } from 'echarts/core';
import { useEffect, useRef } from 'react';
import type { ChartOption } from './echarts.ts';

export type ChartClick = { seriesIndex?: number; dataIndex: number; name: string };

// ECharts (about 180 KB gzip) loads from the moment the Dashboard's chunk does, beside the page's data rather
// than before it. If it cannot load, the charts stay empty: their figures are links beside them anyway.
const echarts = import('./echarts.ts');
echarts.catch(() => undefined);

/**
 * One ECharts chart in a div that follows its width. A new option is merged into the drawn chart (the
 * bars and lines move to their new values) rather than drawn again, so a refresh does not flicker.
 */
export function EChart({
  option,
  height = 260,
  label,
  testId,
  onClick,
}: {
  option: ChartOption;
  height?: number;
  /** What the chart shows, for screen readers (the figures are also links beside it). */
  label: string;
  testId: string;
  onClick?: (click: ChartClick) => void;
}) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const clicked = useRef(onClick);
  const latestOption = useRef(option);
  useEffect(() => {
    clicked.current = onClick;
  }, [onClick]);

  useEffect(() => {
    const node = element.current!;
    let isGone = false;
    let observer: ResizeObserver | undefined;
    void echarts.then(
      ({ init }) => {
        if (isGone) return;
        const instance = init(node, undefined, { renderer: 'svg' });
        chart.current = instance;
        instance.on('click', (params) => {
          const { seriesIndex, dataIndex, name } = params as ChartClick;
          clicked.current?.({ seriesIndex, dataIndex, name });
        });
        observer = new ResizeObserver(() => instance.resize());
        observer.observe(node);
        draw(instance, latestOption.current);
      },
      () => undefined,
    );
    return () => {
      isGone = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    latestOption.current = option;
    if (chart.current) draw(chart.current, option);
  }, [option]);

  return (
    <div
      ref={element}
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ width: '100%', height, cursor: onClick ? 'pointer' : undefined }}
    />
  );
}

function draw(chart: ECharts, option: ChartOption) {
  // Someone who asked their system for less motion gets the chart drawn at once.
  const isReduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  chart.setOption({ ...option, animation: !isReduced });
}
