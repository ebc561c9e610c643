import { toast, Toaster as SonnerToaster } from 'sonner';
import { messageOf, type FieldLabels } from '../lib/errors.js';

/**
 * The console's toasts (sonner), mounted once at the app root. Success and error helpers only: an error
 * toast reads the catalogue's message through `messageOf`, never a machine code.
 */
export function Toaster() {
  return <SonnerToaster position="bottom-right" closeButton containerAriaLabel="Notifications" />;
}

export function toastSuccess(message: string): void {
  toast.success(message);
}

/** `context` says what failed ("The key was not revoked"); the service's own words follow. */
export function toastError(error: unknown, context?: string, labels?: FieldLabels): void {
  const message = messageOf(error, labels);
  toast.error(context ? `${context}: ${message}` : message);
}
