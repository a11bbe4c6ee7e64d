// The mail module's entry: what the rest of the server and the tests may use of it; its other
// files are its own (docs/architecture.md, "Modules and their entries").
export {
  createMailOutbox,
  type MailDeliveryListener,
  mailBacklog,
  pruneSentMails,
  queueMail,
  resealMailBodies,
  sealClearMailBodies,
} from './mail-outbox.service.ts';
export { mailOutbox } from './mail-outbox.table.ts';
