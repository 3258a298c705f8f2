import { itProductData } from '../fields/it.ts';
import type { Messages } from './en.ts';

/** Italiano. Keys and `{placeholders}` as in en.ts. */
export const it: Messages = {
  pageTitle: '{product} · Passaporto digitale del prodotto',
  masthead: 'Passaporto digitale del prodotto',
  skipLink: 'Vai ai dati del prodotto',
  testBanner: 'Ambiente di prova: questo passaporto non descrive un prodotto reale.',
  languageLabel: 'Lingua',
  brandLogo: 'Logo di {brand}',
  verdict: {
    authentic: {
      title: 'Autentico',
      message:
        'La firma crittografica del tag è autentica ed è stata usata per la prima volta: questo è il prodotto descritto dal passaporto.',
    },
    replayed: {
      title: 'Ripetuto',
      message:
        'Questa firma del tag è già stata usata. Un tag copiato può solo ripetere vecchie firme. Avvicina di nuovo il telefono al tag del prodotto: un tag autentico firma ogni lettura in modo nuovo.',
    },
    forged: {
      title: 'Non autentico',
      message:
        'La firma del tag non corrisponde al chip di questo prodotto. Non fidarti del tag di questo articolo.',
    },
    unverifiable: {
      title: 'Non ancora verificabile',
      message:
        'Il produttore non ha ancora configurato le chiavi che verificano il tag di questo prodotto, quindi la sua firma non può essere verificata. Il passaporto qui sotto è autentico; il tag non è né confermato né smentito.',
    },
    expired: {
      title: 'Scansiona di nuovo il tag',
      message:
        'Il risultato di questa lettura ha più di dieci minuti. Avvicina o scansiona il tag per un nuovo controllo.',
    },
    revoked: {
      title: 'Passaporto revocato',
      message: 'Il produttore ha revocato questo passaporto: non considerarlo una prova di questo prodotto.',
    },
    recycled: {
      title: 'Prodotto riciclato',
      message: 'Questo prodotto è stato riciclato; il suo passaporto è chiuso e conservato come registro.',
    },
    registered: {
      title: 'Passaporto registrato',
      message:
        'Questo passaporto è registrato sulla blockchain: i dati del prodotto e la cronologia qui sotto sono del produttore.',
    },
    checkedAt: 'Tag verificato il {time}.',
    issuedOn: 'Emesso il {date}.',
  },
  nfc: {
    title: 'Verifica tu stesso il tag',
    intro:
      'Il prodotto ha un tag NFC che firma ogni lettura con una chiave che solo il chip autentico possiede.',
    button: 'Scansiona il tag',
    tapHint:
      'Per verificare il prodotto che hai in mano, avvicina il telefono al suo tag NFC: questa pagina si apre con il risultato.',
    checking: 'Verifica della firma del tag…',
    hold: 'Avvicina il telefono al tag sul prodotto…',
    readError: 'Il tag non può essere letto. Tieni il telefono fermo contro il tag.',
    noUrl: 'Questo tag non contiene un indirizzo web. Non è un tag di passaporto.',
    offline: 'Verifica non riuscita: nessuna connessione al servizio dei passaporti. Riprova.',
    denied: 'Il permesso NFC è stato negato.',
    unavailable: 'NFC non disponibile.',
    failed: 'Questo tag non può essere verificato.',
    again: '{verdict}. Puoi scansionare di nuovo.',
  },
  status: {
    label: 'Stato',
    ACTIVE: 'Attivo',
    RECYCLED: 'Riciclato',
    REVOKED: 'Revocato',
    SUSPENDED: 'Sospeso',
    ARCHIVED: 'Archiviato',
  },
  notice: {
    revokedLead: 'Revocato.',
    revoked: 'Il produttore ha revocato questo passaporto.',
    revokedOn: 'Il produttore ha revocato questo passaporto il {date}.',
    revokedReason: 'Motivo indicato: {reason}',
    revokedMeaning:
      'Cosa significa per te: il passaporto non dimostra più che questo prodotto è autentico né a chi appartiene, e non permette più di rivenderlo o di rivendicarne la proprietà. Se l’hai acquistato di recente, contatta il venditore o il marchio.',
    recycledLead: 'Riciclato.',
    recycled: 'Questo prodotto è stato riciclato; il suo passaporto è chiuso e conservato come registro.',
    recycledOn:
      'Questo prodotto è stato riciclato il {date}; il suo passaporto è chiuso e conservato come registro.',
    recycledMeaning:
      'Cosa significa per te: il prodotto è giunto a fine vita e il suo deposito è stato pagato al riciclatore. Se possiedi ancora questo articolo, il suo tag non dimostra più nulla: contatta il marchio.',
    suspendedLead: 'Sospeso.',
    suspended:
      'Il produttore ha sospeso questo passaporto per ora: i suoi dati non vengono aggiornati finché non viene riattivato.',
    archivedLead: 'Archiviato.',
    archived:
      'Il produttore ha chiuso questo passaporto; è conservato invariato come registro, con tutte le versioni precedenti.',
  },
  reopened: {
    title: 'Il link di questa etichetta è già stato aperto.',
    body: 'Questo link è stato aperto {count} volte dal {since}: il prodotto che hai in mano potrebbe non avere l’etichetta originale.',
    advice:
      'Un’etichetta autentica scrive un nuovo link a ogni lettura. Avvicina di nuovo il telefono all’etichetta stessa (non a un link salvato, una foto o un codice stampato). Se anche una nuova lettura mostra questo avviso, o il prodotto ha solo un codice stampato, non fidarti: chiedi al venditore o segnalalo al marchio.',
  },
  facts: {
    manufacturer: 'Produttore',
    gtin: 'GTIN',
    serial: 'Numero di serie',
    batch: 'Lotto',
    origin: 'Paese di origine',
    category: 'Categoria',
    conformity: 'Dichiarazione di conformità',
    conformityLink: 'Vedi la dichiarazione di conformità UE',
    scans: 'Letture del tag verificate',
    materials: 'Materiali',
    material: '{material}: {share}',
    partOf: 'Parte di {levels}: questo passaporto mostra i loro dati insieme ai propri.',
    and: 'e',
    modelLabel: 'modello {gtin}',
    batchLabel: 'lotto {lot}',
    modelPassport: 'passaporto del modello',
    batchPassport: 'passaporto del lotto',
    fromModel: 'dal passaporto del modello',
    fromBatch: 'dal passaporto del lotto',
  },
  brandTexts: {
    fallback:
      'Il marchio ha fornito i testi di questo prodotto in {shown}, non in {wanted}: sono mostrati in {shown}.',
  },
  history: {
    title: 'Cronologia',
    MINT: 'Passaporto emesso',
    QC_PASSED: 'Controllo qualità superato',
    EXPORT_CLEARED: 'Esportazione sdoganata',
    IMPORT_CLEARED: 'Importazione sdoganata',
    CUSTOMS_CLEARED: 'Sdoganato',
    SHIPPED: 'Spedito',
    DELIVERED: 'Consegnato',
    INITIAL_SALE: 'Prima vendita',
    SOLD: 'Venduto',
    AUTHORIZE_CLAIM: 'Rivendita autorizzata',
    CLAIM_OWNERSHIP: 'Proprietà rivendicata',
    RECYCLE_TRANSFER: 'Riciclato, deposito pagato',
    PRODUCT_DATA_UPDATED: 'Dati del prodotto aggiornati',
    DPP_STATUS_CHANGED: 'Stato del passaporto cambiato',
  },
  chain: {
    title: 'Verifica sulla blockchain',
    intro:
      'Ogni passaggio qui sopra è ancorato su una blockchain pubblica. Questi riferimenti permettono a chiunque di verificarlo in modo indipendente.',
    contract: 'Smart contract',
    issued: 'Passaporto emesso',
    pending: 'Ancoraggio sulla blockchain in corso…',
    explorer: 'Apri nel block explorer',
  },
  owner: {
    title: 'Cosa puoi fare',
    claimTitle: 'Rivendica la proprietà',
    claimText:
      'Hai comprato e pagato questo articolo di seconda mano? Rendilo tuo: accedi con l’account con cui l’hai acquistato, poi avvicina il telefono al tag del prodotto.',
    claimNeedsNfc:
      'Per rivendicarlo serve un telefono il cui browser legge i tag NFC (Chrome su Android): apri questa pagina lì oppure avvicina quel telefono al tag.',
    email: 'E-mail',
    password: 'Password',
    claimButton: 'Accedi e avvicina il tag',
    claimSigningIn: 'Accesso in corso…',
    claimHold: 'Ora avvicina il telefono al tag sul prodotto…',
    claimSending: 'Registrazione della tua proprietà sulla blockchain…',
    claimDone: 'Fatto: questo articolo ora è tuo. La proprietà è passata al tuo account sulla blockchain.',
    claimRefused: 'La rivendicazione è stata rifiutata: {reason}',
    signInFailed: 'Accesso non riuscito: controlla e-mail e password.',
    careTitle: 'Cura e riparazione',
    careLink: 'Istruzioni per la cura',
    repairLink: 'Servizio di riparazione',
    resaleTitle: 'Rivendilo usato',
    resaleText:
      'Il passaporto passa con l’articolo al prossimo proprietario, che lo rivendica avvicinando il telefono al tag.',
    resaleLink: 'Rivendi con {brand}',
    recyclingTitle: 'Riciclalo',
    recyclingText:
      'A fine vita, portalo a un riciclatore certificato. Il riciclo è registrato sulla blockchain e sblocca il deposito di {deposit} vincolato all’emissione di questo passaporto.',
    recyclingTextNoDeposit:
      'A fine vita, portalo a un riciclatore certificato: il riciclo è registrato in questo passaporto sulla blockchain.',
    recyclingDone:
      'Questo prodotto è stato riciclato e il suo deposito di {deposit} è stato pagato al riciclatore.',
    recyclingWhere: 'Dove riciclarlo',
    contactTitle: 'Contatta {brand}',
    contactEmail: 'Scrivi a {email}',
    contactWeb: 'Servizio clienti',
  },
  machine: {
    title: 'Passaporto leggibile dalle macchine',
    credential: 'Credenziale verificabile (JSON-LD)',
    linkset: 'Linkset GS1',
    aas: 'Asset administration shell (AAS)',
  },
  level: {
    product: 'Prodotto {gtin}',
    productBy: 'Prodotto {gtin} ({manufacturer})',
    withBatch: '{product}, lotto {lot}',
    model: 'Passaporto del modello',
    batch: 'Passaporto del lotto',
    modelScope: 'comune a ogni esemplare di questo prodotto',
    batchScope: 'comune a ogni esemplare del lotto {lot}',
    partOfModel: 'Fa parte del {link}.',
    modelOf: 'passaporto del modello {name}',
    passportId: 'ID del passaporto',
    modelItems:
      'Ogni esemplare di questo prodotto ha un proprio passaporto al numero di serie stampato su di esso; mostra i dati di questo modello insieme ai propri.',
    batchItems:
      'Ogni esemplare di questo lotto ha un proprio passaporto al numero di serie stampato su di esso; mostra i dati di questo lotto insieme ai propri.',
    document: 'Documento del passaporto (EN 18222, JSON)',
    publicView: 'Vista pubblica (JSON-LD)',
    digitalLink: 'GS1 Digital Link',
  },
  productData: itProductData,
  materials: {
    cotton: 'Cotone',
    organic_cotton: 'Cotone biologico',
    recycled_cotton: 'Cotone riciclato',
    polyester: 'Poliestere',
    recycled_polyester: 'Poliestere riciclato',
    polyamide: 'Poliammide',
    nylon: 'Nylon',
    elastane: 'Elastan',
    wool: 'Lana',
    merino_wool: 'Lana merino',
    cashmere: 'Cashmere',
    silk: 'Seta',
    linen: 'Lino',
    hemp: 'Canapa',
    viscose: 'Viscosa',
    lyocell: 'Lyocell',
    modal: 'Modal',
    acrylic: 'Acrilico',
    leather: 'Pelle',
    down: 'Piumino',
    feathers: 'Piume',
    rubber: 'Gomma',
    metal: 'Metallo',
  },
};
