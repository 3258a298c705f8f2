import type { passkeyAddressProblem } from '../webauthn.ts';

/** Why passkeys cannot work at this address, with a link to the one where they do. */
export function PasskeyAddressNote({
  problem,
  className,
}: {
  problem: ReturnType<typeof passkeyAddressProblem>;
  className: string;
}) {
  if (!problem) return null;
  return (
    <p className={className}>
      Passkeys do not work at an IP address ({problem.host}): browsers tie them to a name. Open{' '}
      <a href={problem.url}>{problem.url}</a> to add or use one.
    </p>
  );
}
