import { ComingSoonPage } from '../../../components/coming-soon.tsx';

// Title only until its feature is built; the route table (app/routes.ts) loads the default export.
export default function FundWaterPage() {
  return <ComingSoonPage titleKey="routes:fundWater" />;
}
