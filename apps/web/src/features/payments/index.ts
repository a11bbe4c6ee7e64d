export { ReceiptDialog } from './components/receipt-dialog.tsx';
