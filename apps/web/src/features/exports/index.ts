// The exports feature's door: the list kit draws a list's Export button with it.
export { ExportButton } from './components/export-button.tsx';
