/** Trimmed and lowercased: one account, one wallet per mailbox however the address is typed. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
