// Dates (dayjs, antd's pickers) follow the console's language. Imported by the layout: the login route
// shows no dates and does not load dayjs.
import dayjs from 'dayjs';
import 'dayjs/locale/vi';
import 'dayjs/locale/zh-cn';
import i18n from './index.ts';
import { type Language, resolveLanguage } from './language.ts';

const DAYJS_LOCALES: Record<Language, string> = { en: 'en', 'zh-cn': 'zh-cn', vi: 'vi' };

const apply = (value: string) => dayjs.locale(DAYJS_LOCALES[resolveLanguage(value)]);

apply(i18n.language);
i18n.on('languageChanged', apply);
