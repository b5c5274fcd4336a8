// The demo merchant and its history, seeded on an empty database (npm start's --demo, development).
export {
  DEMO_LIVE_GUIDE,
  DEMO_MERCHANT_NO,
  DEMO_OTHER_MERCHANTS,
  DEMO_PASSWORD,
  DEMO_USERS,
  RAZORPAY_DEMO_MERCHANT,
  seedDemo,
} from './seed-demo.ts';
