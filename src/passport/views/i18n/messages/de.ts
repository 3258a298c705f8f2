import { deProductData } from '../fields/de.ts';
import type { Messages } from './en.ts';

/** Deutsch. Keys and `{placeholders}` as in en.ts. */
export const de: Messages = {
  pageTitle: '{product} · Digitaler Produktpass',
  masthead: 'Digitaler Produktpass',
  skipLink: 'Zu den Produktangaben springen',
  testBanner: 'Testumgebung: Dieser Pass beschreibt kein echtes Produkt.',
  languageLabel: 'Sprache',
  brandLogo: 'Logo von {brand}',
  verdict: {
    authentic: {
      title: 'Echt',
      message:
        'Die kryptografische Signatur des Tags ist echt und wurde zum ersten Mal verwendet: Dies ist das Produkt, das der Pass beschreibt.',
    },
    replayed: {
      title: 'Wiederholt',
      message:
        'Diese Signatur des Tags wurde schon einmal verwendet. Ein kopierter Tag kann nur alte Signaturen wiederholen. Tippen Sie noch einmal auf den Tag des Produkts: Ein echter Tag signiert jedes Antippen neu.',
    },
    forged: {
      title: 'Nicht echt',
      message:
        'Die Signatur des Tags passt nicht zum Chip dieses Produkts. Vertrauen Sie dem Tag dieses Artikels nicht.',
    },
    unverifiable: {
      title: 'Noch nicht prüfbar',
      message:
        'Der Hersteller hat die Schlüssel zur Prüfung dieses Tags noch nicht eingerichtet, daher kann seine Signatur nicht geprüft werden. Der Pass unten ist echt; der Tag ist weder bestätigt noch widerlegt.',
    },
    expired: {
      title: 'Tag erneut scannen',
      message:
        'Das Ergebnis dieses Antippens ist älter als zehn Minuten. Tippen oder scannen Sie den Tag für eine neue Prüfung.',
    },
    revoked: {
      title: 'Pass widerrufen',
      message:
        'Der Hersteller hat diesen Pass widerrufen: Verlassen Sie sich nicht darauf als Nachweis für dieses Produkt.',
    },
    recycled: {
      title: 'Recyceltes Produkt',
      message: 'Dieses Produkt wurde recycelt; sein Pass ist geschlossen und bleibt als Nachweis erhalten.',
    },
    registered: {
      title: 'Registrierter Pass',
      message:
        'Dieser Pass ist auf der Blockchain verzeichnet: Die Produktangaben und der Verlauf unten stammen vom Hersteller.',
    },
    checkedAt: 'Tag geprüft {time}.',
    issuedOn: 'Ausgestellt am {date}.',
  },
  nfc: {
    title: 'Den Tag selbst prüfen',
    intro:
      'Das Produkt trägt einen NFC-Tag, der jedes Antippen mit einem Schlüssel signiert, den nur der echte Chip besitzt.',
    button: 'Tag scannen',
    tapHint:
      'Um das Produkt in Ihren Händen zu prüfen, halten Sie Ihr Telefon an seinen NFC-Tag: Diese Seite öffnet sich mit dem Ergebnis.',
    checking: 'Die Signatur des Tags wird geprüft…',
    hold: 'Halten Sie Ihr Telefon an den Tag am Produkt…',
    readError: 'Der Tag konnte nicht gelesen werden. Halten Sie das Telefon ruhig an den Tag.',
    noUrl: 'Dieser Tag enthält keine Webadresse. Er ist kein Produktpass-Tag.',
    offline: 'Die Prüfung ist fehlgeschlagen: keine Verbindung zum Pass-Dienst. Versuchen Sie es erneut.',
    denied: 'Die NFC-Berechtigung wurde verweigert.',
    unavailable: 'NFC ist nicht verfügbar.',
    failed: 'Dieser Tag konnte nicht geprüft werden.',
    again: '{verdict}. Sie können erneut scannen.',
  },
  status: {
    label: 'Status',
    ACTIVE: 'Aktiv',
    RECYCLED: 'Recycelt',
    REVOKED: 'Widerrufen',
    SUSPENDED: 'Ausgesetzt',
    ARCHIVED: 'Archiviert',
  },
  notice: {
    revokedLead: 'Widerrufen.',
    revoked: 'Der Hersteller hat diesen Pass widerrufen.',
    revokedOn: 'Der Hersteller hat diesen Pass am {date} widerrufen.',
    revokedReason: 'Angegebener Grund: {reason}',
    revokedMeaning:
      'Was das für Sie bedeutet: Der Pass belegt nicht mehr, dass dieses Produkt echt ist oder wem es gehört, und es kann darüber nicht mehr weiterverkauft oder übernommen werden. Wenn Sie es kürzlich gekauft haben, wenden Sie sich an den Verkäufer oder die Marke.',
    recycledLead: 'Recycelt.',
    recycled: 'Dieses Produkt wurde recycelt; sein Pass ist geschlossen und bleibt als Nachweis erhalten.',
    recycledOn:
      'Dieses Produkt wurde am {date} recycelt; sein Pass ist geschlossen und bleibt als Nachweis erhalten.',
    recycledMeaning:
      'Was das für Sie bedeutet: Das Produkt hat das Ende seiner Nutzung erreicht und sein Pfand wurde an den Recycler ausgezahlt. Wenn Sie diesen Artikel noch besitzen, belegt sein Tag nichts mehr: Wenden Sie sich an die Marke.',
    suspendedLead: 'Ausgesetzt.',
    suspended:
      'Der Hersteller hat diesen Pass vorübergehend ausgesetzt: Seine Daten werden nicht aktualisiert, bis er wieder aktiviert wird.',
    archivedLead: 'Archiviert.',
    archived:
      'Der Hersteller hat diesen Pass geschlossen; er bleibt unverändert als Nachweis erhalten, einschließlich aller früheren Fassungen.',
  },
  reopened: {
    title: 'Der Link dieses Tags wurde schon geöffnet.',
    body: 'Dieser Link wurde seit {since} {count}-mal geöffnet: Das Produkt in Ihrer Hand trägt möglicherweise nicht das Original-Tag.',
    advice:
      'Ein echtes Tag schreibt bei jedem Antippen einen neuen Link. Halten Sie Ihr Telefon noch einmal an das Tag selbst (nicht an einen gespeicherten Link, ein Foto oder einen gedruckten Code). Zeigt auch ein neues Antippen diesen Hinweis oder trägt das Produkt nur einen gedruckten Code, verlassen Sie sich nicht darauf: Fragen Sie den Verkäufer oder melden Sie es der Marke.',
  },
  facts: {
    manufacturer: 'Hersteller',
    gtin: 'GTIN',
    serial: 'Seriennummer',
    batch: 'Charge',
    origin: 'Herkunftsland',
    category: 'Kategorie',
    conformity: 'Konformitätserklärung',
    conformityLink: 'EU-Konformitätserklärung ansehen',
    scans: 'Geprüfte Tag-Scans',
    materials: 'Materialien',
    material: '{material}: {share}',
    partOf: 'Teil von {levels}: Dieser Pass zeigt deren Daten zusammen mit seinen eigenen.',
    and: 'und',
    modelLabel: 'Modell {gtin}',
    batchLabel: 'Charge {lot}',
    modelPassport: 'Modellpass',
    batchPassport: 'Chargenpass',
    fromModel: 'aus dem Modellpass',
    fromBatch: 'aus dem Chargenpass',
  },
  brandTexts: {
    fallback:
      'Die Marke hat die Texte dieses Produkts auf {shown} angegeben, nicht auf {wanted}: Sie werden auf {shown} gezeigt.',
  },
  history: {
    title: 'Verlauf',
    MINT: 'Pass ausgestellt',
    QC_PASSED: 'Qualitätsprüfung bestanden',
    EXPORT_CLEARED: 'Ausfuhr freigegeben',
    IMPORT_CLEARED: 'Einfuhr freigegeben',
    CUSTOMS_CLEARED: 'Zollabfertigung erfolgt',
    SHIPPED: 'Versandt',
    DELIVERED: 'Zugestellt',
    INITIAL_SALE: 'Erstverkauf',
    SOLD: 'Verkauft',
    AUTHORIZE_CLAIM: 'Weiterverkauf freigegeben',
    CLAIM_OWNERSHIP: 'Eigentum übernommen',
    RECYCLE_TRANSFER: 'Recycelt, Pfand ausgezahlt',
    PRODUCT_DATA_UPDATED: 'Produktdaten aktualisiert',
    DPP_STATUS_CHANGED: 'Status des Passes geändert',
  },
  chain: {
    title: 'Auf der Blockchain prüfen',
    intro:
      'Jeder Schritt oben ist in einer öffentlichen Blockchain verankert. Mit diesen Angaben kann ihn jeder unabhängig prüfen.',
    contract: 'Smart Contract',
    issued: 'Pass ausgestellt',
    pending: 'Wird in der Blockchain verankert…',
    explorer: 'Im Block-Explorer öffnen',
  },
  owner: {
    title: 'Was Sie tun können',
    claimTitle: 'Eigentum übernehmen',
    claimText:
      'Diesen Artikel gebraucht gekauft und bezahlt? Machen Sie ihn zu Ihrem: Melden Sie sich mit dem Konto an, mit dem Sie ihn gekauft haben, und halten Sie dann Ihr Telefon an den Tag des Produkts.',
    claimNeedsNfc:
      'Zum Übernehmen brauchen Sie ein Telefon, dessen Browser NFC-Tags liest (Chrome auf Android): Öffnen Sie diese Seite dort oder tippen Sie den Tag mit diesem Telefon an.',
    email: 'E-Mail',
    password: 'Passwort',
    claimButton: 'Anmelden und Tag antippen',
    claimSigningIn: 'Anmeldung…',
    claimHold: 'Halten Sie jetzt Ihr Telefon an den Tag am Produkt…',
    claimSending: 'Ihr Eigentum wird auf der Blockchain verzeichnet…',
    claimDone:
      'Fertig: Dieser Artikel gehört jetzt Ihnen. Das Eigentum ging auf der Blockchain an Ihr Konto über.',
    claimRefused: 'Die Übernahme wurde abgelehnt: {reason}',
    signInFailed: 'Anmeldung fehlgeschlagen: Prüfen Sie E-Mail und Passwort.',
    careTitle: 'Pflege und Reparatur',
    careLink: 'Pflegehinweise',
    repairLink: 'Reparaturservice',
    resaleTitle: 'Gebraucht verkaufen',
    resaleText:
      'Der Pass geht mit dem Artikel an den nächsten Besitzer über, der ihn durch Antippen des Tags übernimmt.',
    resaleLink: 'Über {brand} weiterverkaufen',
    recyclingTitle: 'Recyceln',
    recyclingText:
      'Bringen Sie es am Ende seiner Nutzung zu einem zertifizierten Recycler. Das Recycling wird auf der Blockchain verzeichnet und gibt das Pfand von {deposit} frei, das bei der Ausstellung dieses Passes hinterlegt wurde.',
    recyclingTextNoDeposit:
      'Bringen Sie es am Ende seiner Nutzung zu einem zertifizierten Recycler: Das Recycling wird in diesem Pass auf der Blockchain verzeichnet.',
    recyclingDone: 'Dieses Produkt wurde recycelt und sein Pfand von {deposit} an den Recycler ausgezahlt.',
    recyclingWhere: 'Wo Sie es recyceln können',
    contactTitle: '{brand} kontaktieren',
    contactEmail: 'An {email} schreiben',
    contactWeb: 'Kundenservice',
  },
  machine: {
    title: 'Maschinenlesbarer Pass',
    credential: 'Verifizierbarer Nachweis (JSON-LD)',
    linkset: 'GS1-Linkset',
    aas: 'Verwaltungsschale (AAS)',
  },
  level: {
    product: 'Produkt {gtin}',
    productBy: 'Produkt {gtin} ({manufacturer})',
    withBatch: '{product}, Charge {lot}',
    model: 'Modellpass',
    batch: 'Chargenpass',
    modelScope: 'gilt für jedes Exemplar dieses Produkts',
    batchScope: 'gilt für jedes Exemplar der Charge {lot}',
    partOfModel: 'Teil des {link}.',
    modelOf: 'Modellpasses von {name}',
    passportId: 'Pass-ID',
    modelItems:
      'Jedes Exemplar dieses Produkts hat unter seiner aufgedruckten Seriennummer einen eigenen Pass; er zeigt die Angaben dieses Modells zusammen mit seinen eigenen.',
    batchItems:
      'Jedes Exemplar dieser Charge hat unter seiner aufgedruckten Seriennummer einen eigenen Pass; er zeigt die Angaben dieser Charge zusammen mit seinen eigenen.',
    document: 'Passdokument (EN 18222, JSON)',
    publicView: 'Öffentliche Ansicht (JSON-LD)',
    digitalLink: 'GS1 Digital Link',
  },
  productData: deProductData,
  materials: {
    cotton: 'Baumwolle',
    organic_cotton: 'Bio-Baumwolle',
    recycled_cotton: 'Recycelte Baumwolle',
    polyester: 'Polyester',
    recycled_polyester: 'Recyceltes Polyester',
    polyamide: 'Polyamid',
    nylon: 'Nylon',
    elastane: 'Elasthan',
    wool: 'Wolle',
    merino_wool: 'Merinowolle',
    cashmere: 'Kaschmir',
    silk: 'Seide',
    linen: 'Leinen',
    hemp: 'Hanf',
    viscose: 'Viskose',
    lyocell: 'Lyocell',
    modal: 'Modal',
    acrylic: 'Polyacryl',
    leather: 'Leder',
    down: 'Daunen',
    feathers: 'Federn',
    rubber: 'Gummi',
    metal: 'Metall',
  },
};
