// DESIGN 8: the list kit (table, filters, calendar, drawer) is one chunk shared by the list pages, with a
// budget of its own (120 KB gzip), rather than a share of it counted in each page's 80 KB. vite.config.ts
// puts what this matches in it; bench/console.ts finds it by its name.

export const LIST_KIT_CHUNK = 'list-kit';

// Our kit's files, and the libraries that only it uses: antd's pager, descriptions, timeline, skeleton and
// progress, their rc-component parts, and the calendar. antd's form fields are not the kit's: every form
// page has them, and would load the whole kit for them.
// The Export button and the calls it makes are the kit's too: the kit draws the button and the exports' list
// api is the kit's, so apart they would be two chunks importing each other (which one runs first then
// depends on the page loaded first: a function of one is undefined when the other calls it). So are the
// drawer's sections (channel-attempts): left out, one landed in a chunk with the calendar's locale, which the
// kit imports, and a direct load of /lineExport read the exports' schema before it ran. e2e/bundle-size
// checks that no two chunks import each other.
const KIT_SOURCES =
  /[\\/]src[\\/](components[\\/](list-page[\\/]|table\.|data-table\.|filter-bar\.|date-range-input|callback-events\.|channel-attempts\.)|features[\\/]exports[\\/](index\.ts|components[\\/]export-button\.|api[\\/](create-export|get-exports)\.))/;
const KIT_LIBRARIES =
  /[\\/]node_modules[\\/](antd[\\/]es[\\/](pagination|descriptions|timeline)[\\/]|@rc-component[\\/]pagination[\\/]|react-day-picker[\\/])/;

/** The chunk a module goes to when it belongs to the list kit (null: wherever the bundler puts it). */
export function listKitChunkName(moduleId: string): string | null {
  // Texts of a library (antd's locale reads the pager's) go with the layout's locale.
  if (moduleId.includes('?') || /[\\/]locale[\\/]/.test(moduleId)) return null;
  return KIT_SOURCES.test(moduleId) || KIT_LIBRARIES.test(moduleId) ? LIST_KIT_CHUNK : null;
}
