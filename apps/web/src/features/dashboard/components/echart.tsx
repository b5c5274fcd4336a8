import { useEffect, useRef } from 'react';
import { type ChartOption, echarts } from './echarts.ts';

export type ChartClick = { seriesIndex?: number; dataIndex: number; name: string };

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
  const chart = useRef<echarts.ECharts | null>(null);
  const clicked = useRef(onClick);
  useEffect(() => {
    clicked.current = onClick;
  }, [onClick]);

  useEffect(() => {
    const node = element.current!;
    const instance = echarts.init(node, undefined, { renderer: 'svg' });
    chart.current = instance;
    instance.on('click', (params) => {
      const { seriesIndex, dataIndex, name } = params as ChartClick;
      clicked.current?.({ seriesIndex, dataIndex, name });
    });
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(node);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // Someone who asked their system for less motion gets the chart drawn at once.
    const isReduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    chart.current?.setOption({ ...option, animation: !isReduced });
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
