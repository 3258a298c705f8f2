import { enProductData } from '../fields/en.ts';
/**
 * The verification page's fixed texts in English, the reference every other language file follows (same keys,
 * same `{placeholders}`; test/unit/verify-messages.test.ts checks). Translators: change only the quoted texts;
 * keep `{names}` in braces as they are, they are filled in by the page.
 */
export const en = {
  pageTitle: '{product} · Digital Product Passport',
  masthead: 'Digital Product Passport',
  skipLink: 'Skip to the product facts',
  testBanner: 'Test environment: this passport does not describe a real product.',
  languageLabel: 'Language',
  brandLogo: '{brand} logo',
  verdict: {
    authentic: {
      title: 'Authentic',
      message:
        'The tag’s cryptographic signature is genuine and was used for the first time: this is the product the passport describes.',
    },
    replayed: {
      title: 'Replayed',
      message:
        'This tag signature was already used before. A copied tag can only repeat old signatures. Tap the product’s own tag again: a genuine tag signs every tap anew.',
    },
    forged: {
      title: 'Not authentic',
      message: 'The tag’s signature does not match this product’s chip. Do not trust this item’s tag.',
    },
    unverifiable: {
      title: 'Cannot be checked yet',
      message:
        'The manufacturer has not set up the keys that check this product’s tag, so its signature cannot be verified. The passport below is genuine; the tag is neither confirmed nor refuted.',
    },
    expired: {
      title: 'Scan the tag again',
      message: 'This tap’s result is more than ten minutes old. Tap or scan the tag for a fresh check.',
    },
    revoked: {
      title: 'Passport revoked',
      message: 'The manufacturer revoked this passport: do not rely on it as proof of this product.',
    },
    recycled: {
      title: 'Recycled product',
      message: 'This product was recycled; its passport is closed and kept as its record.',
    },
    registered: {
      title: 'Registered passport',
      message:
        'This passport is recorded on chain: the product facts and history below are the manufacturer’s.',
    },
    checkedAt: 'Tag checked {time}.',
    issuedOn: 'Issued {date}.',
  },
  nfc: {
    title: 'Check the tag yourself',
    intro: 'The product carries an NFC tag that signs every tap with a key only the genuine chip holds.',
    button: 'Scan the tag',
    tapHint:
      'To check the product in your hands, tap its NFC tag with your phone: this page opens with the result.',
    checking: 'Checking the tag’s signature…',
    hold: 'Hold your phone to the tag on the product…',
    readError: 'The tag could not be read. Hold the phone still against the tag.',
    noUrl: 'This tag holds no web address. It is not a passport tag.',
    offline: 'The check failed: no connection to the passport service. Try again.',
    denied: 'NFC permission was refused.',
    unavailable: 'NFC is not available.',
    failed: 'This tag could not be checked.',
    again: '{verdict}. You can scan again.',
  },
  status: {
    label: 'Status',
    ACTIVE: 'Active',
    RECYCLED: 'Recycled',
    REVOKED: 'Revoked',
    SUSPENDED: 'Suspended',
    ARCHIVED: 'Archived',
  },
  notice: {
    revokedLead: 'Revoked.',
    revoked: 'The manufacturer revoked this passport.',
    revokedOn: 'The manufacturer revoked this passport on {date}.',
    revokedReason: 'Reason given: {reason}',
    revokedMeaning:
      'What this means for you: the passport no longer proves that this product is genuine or who owns it, and it can no longer be resold or claimed through it. If you bought it recently, contact the seller or the brand.',
    recycledLead: 'Recycled.',
    recycled: 'This product was recycled; its passport is closed and kept as its record.',
    recycledOn: 'This product was recycled on {date}; its passport is closed and kept as its record.',
    recycledMeaning:
      'What this means for you: the product has reached the end of its life and its deposit was paid to the recycler. If you still hold this item, its tag proves nothing about it any more: contact the brand.',
    suspendedLead: 'Suspended.',
    suspended:
      'The manufacturer has suspended this passport for now: its data is not being updated until it is reactivated.',
    archivedLead: 'Archived.',
    archived:
      'The manufacturer closed this passport; it is kept unchanged as a record, every earlier version included.',
  },
  /** Under a "Replayed" verdict whose link was opened many times (api/routes/verify/reopen-notice.ts). */
  reopened: {
    title: 'This tag’s link has been opened before.',
    body: 'This link was opened {count} times since {since}: the product in your hand may not carry the original tag.',
    advice:
      'A genuine tag writes a new link on every tap. Tap the tag itself again with your phone (not a saved link, a photo or a printed code). If a fresh tap also shows this, or the product has only a printed code, do not rely on it: ask the seller, or report it to the brand.',
  },
  facts: {
    manufacturer: 'Manufacturer',
    gtin: 'GTIN',
    serial: 'Serial number',
    batch: 'Batch',
    origin: 'Country of origin',
    category: 'Category',
    conformity: 'Declaration of conformity',
    conformityLink: 'View the EU declaration of conformity',
    scans: 'Verified tag scans',
    materials: 'Materials',
    material: '{material}: {share}',
    partOf: 'Part of {levels}: this passport shows their data together with its own.',
    and: 'and',
    modelLabel: 'model {gtin}',
    batchLabel: 'batch {lot}',
    modelPassport: 'model passport',
    batchPassport: 'batch passport',
    fromModel: 'from the model passport',
    fromBatch: 'from the batch passport',
  },
  brandTexts: {
    fallback: 'The brand gave this product’s texts in {shown}, not in {wanted}: they are shown in {shown}.',
  },
  history: {
    title: 'History',
    MINT: 'Passport issued',
    QC_PASSED: 'Quality check passed',
    EXPORT_CLEARED: 'Export cleared',
    IMPORT_CLEARED: 'Import cleared',
    CUSTOMS_CLEARED: 'Customs cleared',
    SHIPPED: 'Shipped',
    DELIVERED: 'Delivered',
    INITIAL_SALE: 'First sale',
    SOLD: 'Sold',
    AUTHORIZE_CLAIM: 'Resale authorised',
    CLAIM_OWNERSHIP: 'Ownership claimed',
    RECYCLE_TRANSFER: 'Recycled, deposit released',
    PRODUCT_DATA_UPDATED: 'Product data updated',
    DPP_STATUS_CHANGED: 'Passport status changed',
  },
  chain: {
    title: 'Verify on chain',
    intro:
      'Each step above is anchored on a public blockchain. These references let anyone check it independently.',
    contract: 'Smart contract',
    issued: 'Passport issued',
    pending: 'Being anchored on chain…',
    explorer: 'Open in the block explorer',
  },
  owner: {
    title: 'What you can do',
    claimTitle: 'Claim ownership',
    claimText:
      'Bought this item second-hand and paid for it? Make it yours: sign in with the account you bought it with, then tap the product’s tag with your phone.',
    claimNeedsNfc:
      'Claiming needs a phone whose browser reads NFC tags (Chrome on Android): open this page there, or tap the tag with that phone.',
    email: 'E-mail',
    password: 'Password',
    claimButton: 'Sign in and tap the tag',
    claimSigningIn: 'Signing in…',
    claimHold: 'Now hold your phone to the tag on the product…',
    claimSending: 'Recording your ownership on chain…',
    claimDone: 'Done: this item is now yours. Its ownership moved on chain to your account.',
    claimRefused: 'The claim was refused: {reason}',
    signInFailed: 'Signing in failed: check your e-mail and password.',
    careTitle: 'Care and repair',
    careLink: 'Care instructions',
    repairLink: 'Repair service',
    resaleTitle: 'Sell it second-hand',
    resaleText: 'Its passport moves with it to the next owner, who claims it with a tap of the tag.',
    resaleLink: 'Resell with {brand}',
    recyclingTitle: 'Recycle it',
    recyclingText:
      'At the end of its life, bring it to a certified recycler. The recycling is recorded on chain and releases the deposit of {deposit} locked when this passport was issued.',
    recyclingTextNoDeposit:
      'At the end of its life, bring it to a certified recycler: the recycling is recorded in this passport on chain.',
    recyclingDone: 'This product was recycled and its deposit of {deposit} was released to the recycler.',
    recyclingWhere: 'Where to recycle it',
    contactTitle: 'Contact {brand}',
    contactEmail: 'Write to {email}',
    contactWeb: 'Customer service',
  },
  machine: {
    title: 'Machine-readable passport',
    credential: 'Verifiable credential (JSON-LD)',
    linkset: 'GS1 linkset',
    aas: 'Asset administration shell',
  },
  /** The model and batch passports' pages (api/routes/verify/level-render.ts). */
  level: {
    product: 'Product {gtin}',
    productBy: 'Product {gtin} ({manufacturer})',
    withBatch: '{product}, batch {lot}',
    model: 'Model passport',
    batch: 'Batch passport',
    modelScope: 'shared by every item of this product',
    batchScope: 'shared by every item of batch {lot}',
    partOfModel: 'Part of the {link}.',
    modelOf: 'model passport of {name}',
    passportId: 'Passport id',
    modelItems:
      'Each item of this product has its own passport at the serial number printed on it; it shows this model’s data together with its own.',
    batchItems:
      'Each item of this batch has its own passport at the serial number printed on it; it shows this batch’s data together with its own.',
    document: 'Passport document (EN 18222, JSON)',
    publicView: 'Public view (JSON-LD)',
    digitalLink: 'GS1 Digital Link',
  },
  /** Product-group data: card titles and field names (../fields/en.ts). */
  productData: enProductData,
  /** Material names for the composition's keys (lower case, words joined by `_`); others are shown as given. */
  materials: {
    cotton: 'Cotton',
    organic_cotton: 'Organic cotton',
    recycled_cotton: 'Recycled cotton',
    polyester: 'Polyester',
    recycled_polyester: 'Recycled polyester',
    polyamide: 'Polyamide',
    nylon: 'Nylon',
    elastane: 'Elastane',
    wool: 'Wool',
    merino_wool: 'Merino wool',
    cashmere: 'Cashmere',
    silk: 'Silk',
    linen: 'Linen',
    hemp: 'Hemp',
    viscose: 'Viscose',
    lyocell: 'Lyocell',
    modal: 'Modal',
    acrylic: 'Acrylic',
    leather: 'Leather',
    down: 'Down',
    feathers: 'Feathers',
    rubber: 'Rubber',
    metal: 'Metal',
  },
};

/** The shape every language's messages have. */
export type Messages = typeof en;
