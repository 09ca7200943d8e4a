/**
 * Saves a file the API answers (a CSV export, an invoice PDF) under `filename`: fetched with the
 * signed-in user's token, then handed to the browser as a download.
 */
import { apiBlob } from './api-client.ts';

/** `path` below `/api`, with its query. @throws ApiError */
export async function downloadApiFile(path: string, filename: string): Promise<void> {
  const url = URL.createObjectURL(await apiBlob(path));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
