import type { OwnerWallet } from '../passports-api.ts';

/** Who holds the passport, in words first; the address (and, for a smart account, whether it exists yet) below. */
function holder(owner: OwnerWallet): { who: string; detail: string } {
  switch (owner.kind) {
    case 'company-custody':
      return { who: 'Your company', detail: 'Not sold yet: it is in your company’s custody wallet.' };
    case 'smart-account':
      return {
        who: 'The buyer',
        detail: owner.deployed
          ? 'In the buyer’s smart account, which the service keeps for them (they hold no key and pay no fees).'
          : 'In the buyer’s smart account. The account is not on the blockchain yet: the buyer’s first claim creates it.',
      };
    case 'personal-wallet':
      return {
        who: 'The buyer',
        detail: 'In the buyer’s wallet from before smart accounts. It keeps working; nothing to do.',
      };
    default:
      return {
        who: 'Someone else',
        detail: 'In a wallet this service does not manage (moved outside the console).',
      };
  }
}

export function OwnerWalletFact({ owner }: { owner: OwnerWallet }) {
  const { who, detail } = holder(owner);
  return (
    <>
      <dt>Held by</dt>
      <dd className="owner-wallet" data-kind={owner.kind}>
        <strong>{who}</strong>
        <span className="hint">{detail}</span>
        <span className="hint">
          {owner.kind === 'smart-account' ? 'Smart account address' : 'Wallet address'}{' '}
          <code className="wrap">{owner.address}</code>
        </span>
      </dd>
    </>
  );
}
