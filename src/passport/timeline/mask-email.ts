/**
 * Masks an e-mail address for output: the first character of the local part and of the domain's first label
 * stay, the rest of each becomes `***`; the top-level domain stays (`jane.doe@acme.example.com` →
 * `j***@a***.com`). Anything without an `@` is masked as a whole.
 */
export function maskEmail(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0) return `${email.slice(0, 1)}***`;
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  const tld = labels.length > 1 ? `.${labels[labels.length - 1]}` : '';
  return `${local.slice(0, 1)}***@${(labels[0] ?? '').slice(0, 1)}***${tld}`;
}
