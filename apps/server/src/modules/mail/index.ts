export {
  createMailService,
  type MailDelivery,
  type MailJob,
  type MailService,
  type QueueMailInput,
} from './mail.service.ts';
export { escapeHtml, renderMail, type RenderedMail } from './render.ts';
export { MAIL_TEMPLATES, type MailTemplate, type MailTemplateParams } from './templates.ts';
