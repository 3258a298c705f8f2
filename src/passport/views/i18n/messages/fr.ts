import { frProductData } from '../fields/fr.ts';
import type { Messages } from './en.ts';

/** Français. Keys and `{placeholders}` as in en.ts. */
export const fr: Messages = {
  pageTitle: '{product} · Passeport numérique de produit',
  masthead: 'Passeport numérique de produit',
  skipLink: 'Aller aux informations du produit',
  testBanner: 'Environnement de test : ce passeport ne décrit pas un vrai produit.',
  languageLabel: 'Langue',
  brandLogo: 'Logo de {brand}',
  verdict: {
    authentic: {
      title: 'Authentique',
      message:
        'La signature cryptographique de l’étiquette est authentique et utilisée pour la première fois : c’est bien le produit décrit par le passeport.',
    },
    replayed: {
      title: 'Rejouée',
      message:
        'Cette signature de l’étiquette a déjà été utilisée. Une étiquette copiée ne peut que répéter d’anciennes signatures. Touchez à nouveau l’étiquette du produit : une étiquette authentique signe chaque lecture à nouveau.',
    },
    forged: {
      title: 'Non authentique',
      message:
        'La signature de l’étiquette ne correspond pas à la puce de ce produit. Ne vous fiez pas à l’étiquette de cet article.',
    },
    unverifiable: {
      title: 'Pas encore vérifiable',
      message:
        'Le fabricant n’a pas encore configuré les clés qui vérifient l’étiquette de ce produit : sa signature ne peut pas être vérifiée. Le passeport ci-dessous est authentique ; l’étiquette n’est ni confirmée ni infirmée.',
    },
    expired: {
      title: 'Scannez à nouveau l’étiquette',
      message:
        'Le résultat de cette lecture date de plus de dix minutes. Touchez ou scannez l’étiquette pour une nouvelle vérification.',
    },
    revoked: {
      title: 'Passeport révoqué',
      message: 'Le fabricant a révoqué ce passeport : ne vous y fiez pas comme preuve de ce produit.',
    },
    recycled: {
      title: 'Produit recyclé',
      message: 'Ce produit a été recyclé ; son passeport est clos et conservé comme trace.',
    },
    registered: {
      title: 'Passeport enregistré',
      message:
        'Ce passeport est enregistré sur la blockchain : les informations et l’historique ci-dessous sont ceux du fabricant.',
    },
    checkedAt: 'Étiquette vérifiée le {time}.',
    issuedOn: 'Émis le {date}.',
  },
  nfc: {
    title: 'Vérifier l’étiquette vous-même',
    intro:
      'Le produit porte une étiquette NFC qui signe chaque lecture avec une clé que seule la puce authentique possède.',
    button: 'Scanner l’étiquette',
    tapHint:
      'Pour vérifier le produit que vous avez en main, approchez votre téléphone de son étiquette NFC : cette page s’ouvre avec le résultat.',
    checking: 'Vérification de la signature de l’étiquette…',
    hold: 'Approchez votre téléphone de l’étiquette du produit…',
    readError: 'L’étiquette n’a pas pu être lue. Tenez le téléphone immobile contre l’étiquette.',
    noUrl: 'Cette étiquette ne contient aucune adresse web. Ce n’est pas une étiquette de passeport.',
    offline: 'La vérification a échoué : pas de connexion au service de passeports. Réessayez.',
    denied: 'L’autorisation NFC a été refusée.',
    unavailable: 'Le NFC n’est pas disponible.',
    failed: 'Cette étiquette n’a pas pu être vérifiée.',
    again: '{verdict}. Vous pouvez scanner à nouveau.',
  },
  status: {
    label: 'Statut',
    ACTIVE: 'Actif',
    RECYCLED: 'Recyclé',
    REVOKED: 'Révoqué',
    SUSPENDED: 'Suspendu',
    ARCHIVED: 'Archivé',
  },
  notice: {
    revokedLead: 'Révoqué.',
    revoked: 'Le fabricant a révoqué ce passeport.',
    revokedOn: 'Le fabricant a révoqué ce passeport le {date}.',
    revokedReason: 'Motif indiqué : {reason}',
    revokedMeaning:
      'Ce que cela signifie pour vous : le passeport ne prouve plus que ce produit est authentique ni à qui il appartient, et il ne permet plus de le revendre ni d’en revendiquer la propriété. Si vous l’avez acheté récemment, contactez le vendeur ou la marque.',
    recycledLead: 'Recyclé.',
    recycled: 'Ce produit a été recyclé ; son passeport est clos et conservé comme trace.',
    recycledOn: 'Ce produit a été recyclé le {date} ; son passeport est clos et conservé comme trace.',
    recycledMeaning:
      'Ce que cela signifie pour vous : le produit est arrivé en fin de vie et sa consigne a été versée au recycleur. Si vous possédez encore cet article, son étiquette ne prouve plus rien : contactez la marque.',
    suspendedLead: 'Suspendu.',
    suspended:
      'Le fabricant a suspendu ce passeport pour le moment : ses données ne sont plus mises à jour jusqu’à sa réactivation.',
    archivedLead: 'Archivé.',
    archived:
      'Le fabricant a clos ce passeport ; il est conservé tel quel comme trace, avec toutes ses versions antérieures.',
  },
  reopened: {
    title: 'Le lien de cette étiquette a déjà été ouvert.',
    body: 'Ce lien a été ouvert {count} fois depuis le {since} : le produit que vous tenez ne porte peut-être pas l’étiquette d’origine.',
    advice:
      'Une étiquette authentique écrit un nouveau lien à chaque lecture. Approchez à nouveau votre téléphone de l’étiquette elle-même (pas d’un lien enregistré, d’une photo ou d’un code imprimé). Si une nouvelle lecture affiche encore ce message, ou si le produit n’a qu’un code imprimé, ne vous y fiez pas : demandez au vendeur ou signalez-le à la marque.',
  },
  facts: {
    manufacturer: 'Fabricant',
    gtin: 'GTIN',
    serial: 'Numéro de série',
    batch: 'Lot',
    origin: 'Pays d’origine',
    category: 'Catégorie',
    conformity: 'Déclaration de conformité',
    conformityLink: 'Voir la déclaration UE de conformité',
    scans: 'Lectures d’étiquette vérifiées',
    materials: 'Matières',
    material: '{material} : {share}',
    partOf: 'Fait partie de {levels} : ce passeport affiche leurs données avec les siennes.',
    and: 'et',
    modelLabel: 'modèle {gtin}',
    batchLabel: 'lot {lot}',
    modelPassport: 'passeport du modèle',
    batchPassport: 'passeport du lot',
    fromModel: 'du passeport du modèle',
    fromBatch: 'du passeport du lot',
  },
  brandTexts: {
    fallback:
      'La marque a fourni les textes de ce produit en {shown}, pas en {wanted} : ils sont affichés en {shown}.',
  },
  history: {
    title: 'Historique',
    MINT: 'Passeport émis',
    QC_PASSED: 'Contrôle qualité réussi',
    EXPORT_CLEARED: 'Exportation dédouanée',
    IMPORT_CLEARED: 'Importation dédouanée',
    CUSTOMS_CLEARED: 'Dédouané',
    SHIPPED: 'Expédié',
    DELIVERED: 'Livré',
    INITIAL_SALE: 'Première vente',
    SOLD: 'Vendu',
    AUTHORIZE_CLAIM: 'Revente autorisée',
    CLAIM_OWNERSHIP: 'Propriété revendiquée',
    RECYCLE_TRANSFER: 'Recyclé, consigne versée',
    PRODUCT_DATA_UPDATED: 'Données du produit mises à jour',
    DPP_STATUS_CHANGED: 'Statut du passeport modifié',
  },
  chain: {
    title: 'Vérifier sur la blockchain',
    intro:
      'Chaque étape ci-dessus est ancrée dans une blockchain publique. Ces références permettent à chacun de la vérifier de façon indépendante.',
    contract: 'Contrat intelligent',
    issued: 'Passeport émis',
    pending: 'Ancrage en cours sur la blockchain…',
    explorer: 'Ouvrir dans l’explorateur de blocs',
  },
  owner: {
    title: 'Ce que vous pouvez faire',
    claimTitle: 'Revendiquer la propriété',
    claimText:
      'Vous avez acheté et payé cet article d’occasion ? Faites-en le vôtre : connectez-vous avec le compte utilisé pour l’achat, puis approchez votre téléphone de l’étiquette du produit.',
    claimNeedsNfc:
      'Pour revendiquer, il faut un téléphone dont le navigateur lit les étiquettes NFC (Chrome sur Android) : ouvrez cette page sur celui-ci ou touchez l’étiquette avec ce téléphone.',
    email: 'E-mail',
    password: 'Mot de passe',
    claimButton: 'Se connecter et toucher l’étiquette',
    claimSigningIn: 'Connexion…',
    claimHold: 'Approchez maintenant votre téléphone de l’étiquette du produit…',
    claimSending: 'Enregistrement de votre propriété sur la blockchain…',
    claimDone:
      'C’est fait : cet article est désormais à vous. Sa propriété a été transférée sur la blockchain vers votre compte.',
    claimRefused: 'La revendication a été refusée : {reason}',
    signInFailed: 'La connexion a échoué : vérifiez votre e-mail et votre mot de passe.',
    careTitle: 'Entretien et réparation',
    careLink: 'Conseils d’entretien',
    repairLink: 'Service de réparation',
    resaleTitle: 'Le revendre d’occasion',
    resaleText:
      'Son passeport le suit chez le prochain propriétaire, qui le revendique en touchant l’étiquette.',
    resaleLink: 'Revendre avec {brand}',
    recyclingTitle: 'Le recycler',
    recyclingText:
      'En fin de vie, apportez-le à un recycleur certifié. Le recyclage est enregistré sur la blockchain et libère la consigne de {deposit} bloquée à l’émission de ce passeport.',
    recyclingTextNoDeposit:
      'En fin de vie, apportez-le à un recycleur certifié : le recyclage est enregistré dans ce passeport sur la blockchain.',
    recyclingDone: 'Ce produit a été recyclé et sa consigne de {deposit} a été versée au recycleur.',
    recyclingWhere: 'Où le recycler',
    contactTitle: 'Contacter {brand}',
    contactEmail: 'Écrire à {email}',
    contactWeb: 'Service client',
  },
  machine: {
    title: 'Passeport lisible par machine',
    credential: 'Attestation vérifiable (JSON-LD)',
    linkset: 'Linkset GS1',
    aas: 'Coque d’administration d’actif (AAS)',
  },
  level: {
    product: 'Produit {gtin}',
    productBy: 'Produit {gtin} ({manufacturer})',
    withBatch: '{product}, lot {lot}',
    model: 'Passeport du modèle',
    batch: 'Passeport du lot',
    modelScope: 'commun à tous les exemplaires de ce produit',
    batchScope: 'commun à tous les exemplaires du lot {lot}',
    partOfModel: 'Fait partie du {link}.',
    modelOf: 'passeport du modèle {name}',
    passportId: 'Identifiant du passeport',
    modelItems:
      'Chaque exemplaire de ce produit a son propre passeport, au numéro de série imprimé dessus ; il montre les données de ce modèle avec les siennes.',
    batchItems:
      'Chaque exemplaire de ce lot a son propre passeport, au numéro de série imprimé dessus ; il montre les données de ce lot avec les siennes.',
    document: 'Document du passeport (EN 18222, JSON)',
    publicView: 'Vue publique (JSON-LD)',
    digitalLink: 'GS1 Digital Link',
  },
  productData: frProductData,
  materials: {
    cotton: 'Coton',
    organic_cotton: 'Coton biologique',
    recycled_cotton: 'Coton recyclé',
    polyester: 'Polyester',
    recycled_polyester: 'Polyester recyclé',
    polyamide: 'Polyamide',
    nylon: 'Nylon',
    elastane: 'Élasthanne',
    wool: 'Laine',
    merino_wool: 'Laine mérinos',
    cashmere: 'Cachemire',
    silk: 'Soie',
    linen: 'Lin',
    hemp: 'Chanvre',
    viscose: 'Viscose',
    lyocell: 'Lyocell',
    modal: 'Modal',
    acrylic: 'Acrylique',
    leather: 'Cuir',
    down: 'Duvet',
    feathers: 'Plumes',
    rubber: 'Caoutchouc',
    metal: 'Métal',
  },
};
