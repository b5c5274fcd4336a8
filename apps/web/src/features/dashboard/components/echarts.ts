import {
  BarChart,
  type BarSeriesOption,
  LineChart,
  type LineSeriesOption,
  PieChart,
  type PieSeriesOption,
} from 'echarts/charts';
import {
  GridComponent,
  type GridComponentOption,
  LegendPlainComponent,
  type LegendComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import { type ComposeOption, init, use as register } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

// Only the parts the Dashboard draws: bars, lines and pies, their grid, a plain legend (the scrolling one
// added 2 KB gzip) and the tooltip (with its axis pointer), drawn as SVG. Named imports: a namespace import
// (`* as echarts`) kept 3 KB gzip of unused API. ECharts' own core (zrender, the model, the SVG renderer)
// weighs 103 KB gzip with nothing registered: that is the floor. Loaded by echart.tsx as a chunk of its
// own, so the Dashboard's figures render without waiting for it; never part of the login route or the
// layout. (`use` is renamed: it is ECharts' registration, not a React hook.)
register([BarChart, LineChart, PieChart, GridComponent, LegendPlainComponent, TooltipComponent, SVGRenderer]);

export type ChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | PieSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
>;

export { init };
