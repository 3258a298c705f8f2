import { nlProductData } from '../fields/nl.ts';
import type { Messages } from './en.ts';

/** Nederlands. Keys and `{placeholders}` as in en.ts. */
export const nl: Messages = {
  pageTitle: '{product} · Digitaal productpaspoort',
  masthead: 'Digitaal productpaspoort',
  skipLink: 'Naar de productgegevens',
  testBanner: 'Testomgeving: dit paspoort beschrijft geen echt product.',
  languageLabel: 'Taal',
  brandLogo: 'Logo van {brand}',
  verdict: {
    authentic: {
      title: 'Echt',
      message:
        'De cryptografische handtekening van de tag is echt en voor het eerst gebruikt: dit is het product dat het paspoort beschrijft.',
    },
    replayed: {
      title: 'Herhaald',
      message:
        'Deze handtekening van de tag is al eerder gebruikt. Een gekopieerde tag kan alleen oude handtekeningen herhalen. Houd uw telefoon opnieuw bij de tag van het product: een echte tag ondertekent elke aanraking opnieuw.',
    },
    forged: {
      title: 'Niet echt',
      message:
        'De handtekening van de tag past niet bij de chip van dit product. Vertrouw de tag van dit artikel niet.',
    },
    unverifiable: {
      title: 'Nog niet te controleren',
      message:
        'De fabrikant heeft de sleutels om de tag van dit product te controleren nog niet ingesteld, dus de handtekening kan niet worden gecontroleerd. Het paspoort hieronder is echt; de tag is bevestigd noch weerlegd.',
    },
    expired: {
      title: 'Scan de tag opnieuw',
      message:
        'Het resultaat van deze aanraking is meer dan tien minuten oud. Raak de tag aan of scan hem voor een nieuwe controle.',
    },
    revoked: {
      title: 'Paspoort ingetrokken',
      message:
        'De fabrikant heeft dit paspoort ingetrokken: vertrouw er niet op als bewijs voor dit product.',
    },
    recycled: {
      title: 'Gerecycled product',
      message: 'Dit product is gerecycled; het paspoort is gesloten en blijft bewaard als verslag.',
    },
    registered: {
      title: 'Geregistreerd paspoort',
      message:
        'Dit paspoort is vastgelegd op de blockchain: de productgegevens en de geschiedenis hieronder komen van de fabrikant.',
    },
    checkedAt: 'Tag gecontroleerd op {time}.',
    issuedOn: 'Uitgegeven op {date}.',
  },
  nfc: {
    title: 'Controleer de tag zelf',
    intro:
      'Het product heeft een NFC-tag die elke aanraking ondertekent met een sleutel die alleen de echte chip heeft.',
    button: 'Tag scannen',
    tapHint:
      'Houd uw telefoon bij de NFC-tag om het product in uw handen te controleren: deze pagina opent met het resultaat.',
    checking: 'De handtekening van de tag wordt gecontroleerd…',
    hold: 'Houd uw telefoon bij de tag op het product…',
    readError: 'De tag kon niet worden gelezen. Houd de telefoon stil tegen de tag.',
    noUrl: 'Deze tag bevat geen webadres. Het is geen paspoorttag.',
    offline: 'De controle is mislukt: geen verbinding met de paspoortdienst. Probeer het opnieuw.',
    denied: 'Toestemming voor NFC is geweigerd.',
    unavailable: 'NFC is niet beschikbaar.',
    failed: 'Deze tag kon niet worden gecontroleerd.',
    again: '{verdict}. U kunt opnieuw scannen.',
  },
  status: {
    label: 'Status',
    ACTIVE: 'Actief',
    RECYCLED: 'Gerecycled',
    REVOKED: 'Ingetrokken',
    SUSPENDED: 'Opgeschort',
    ARCHIVED: 'Gearchiveerd',
  },
  notice: {
    revokedLead: 'Ingetrokken.',
    revoked: 'De fabrikant heeft dit paspoort ingetrokken.',
    revokedOn: 'De fabrikant heeft dit paspoort op {date} ingetrokken.',
    revokedReason: 'Opgegeven reden: {reason}',
    revokedMeaning:
      'Wat dit voor u betekent: het paspoort bewijst niet meer dat dit product echt is of van wie het is, en het kan er niet meer mee worden doorverkocht of opgeëist. Hebt u het onlangs gekocht, neem dan contact op met de verkoper of het merk.',
    recycledLead: 'Gerecycled.',
    recycled: 'Dit product is gerecycled; het paspoort is gesloten en blijft bewaard als verslag.',
    recycledOn:
      'Dit product is op {date} gerecycled; het paspoort is gesloten en blijft bewaard als verslag.',
    recycledMeaning:
      'Wat dit voor u betekent: het product is aan het einde van zijn levensduur en het statiegeld is aan de recycler uitbetaald. Hebt u dit artikel nog, dan bewijst de tag er niets meer over: neem contact op met het merk.',
    suspendedLead: 'Opgeschort.',
    suspended:
      'De fabrikant heeft dit paspoort voorlopig opgeschort: de gegevens worden niet bijgewerkt tot het weer actief is.',
    archivedLead: 'Gearchiveerd.',
    archived:
      'De fabrikant heeft dit paspoort gesloten; het blijft ongewijzigd bewaard als verslag, met alle eerdere versies.',
  },
  reopened: {
    title: 'De link van deze tag is al eerder geopend.',
    body: 'Deze link is sinds {since} {count} keer geopend: het product in uw hand draagt mogelijk niet de originele tag.',
    advice:
      'Een echte tag schrijft bij elke tik een nieuwe link. Houd uw telefoon opnieuw bij de tag zelf (niet bij een opgeslagen link, een foto of een gedrukte code). Toont ook een nieuwe tik deze melding, of heeft het product alleen een gedrukte code, vertrouw er dan niet op: vraag het de verkoper of meld het aan het merk.',
  },
  facts: {
    manufacturer: 'Fabrikant',
    gtin: 'GTIN',
    serial: 'Serienummer',
    batch: 'Partij',
    origin: 'Land van herkomst',
    category: 'Categorie',
    conformity: 'Conformiteitsverklaring',
    conformityLink: 'Bekijk de EU-conformiteitsverklaring',
    scans: 'Gecontroleerde tagscans',
    materials: 'Materialen',
    material: '{material}: {share}',
    partOf: 'Onderdeel van {levels}: dit paspoort toont hun gegevens samen met de eigen gegevens.',
    and: 'en',
    modelLabel: 'model {gtin}',
    batchLabel: 'partij {lot}',
    modelPassport: 'modelpaspoort',
    batchPassport: 'partijpaspoort',
    fromModel: 'uit het modelpaspoort',
    fromBatch: 'uit het partijpaspoort',
  },
  brandTexts: {
    fallback:
      'Het merk gaf de teksten van dit product in het {shown}, niet in het {wanted}: ze staan in het {shown}.',
  },
  history: {
    title: 'Geschiedenis',
    MINT: 'Paspoort uitgegeven',
    QC_PASSED: 'Kwaliteitscontrole doorstaan',
    EXPORT_CLEARED: 'Uitvoer ingeklaard',
    IMPORT_CLEARED: 'Invoer ingeklaard',
    CUSTOMS_CLEARED: 'Douane ingeklaard',
    SHIPPED: 'Verzonden',
    DELIVERED: 'Geleverd',
    INITIAL_SALE: 'Eerste verkoop',
    SOLD: 'Verkocht',
    AUTHORIZE_CLAIM: 'Doorverkoop toegestaan',
    CLAIM_OWNERSHIP: 'Eigendom opgeëist',
    RECYCLE_TRANSFER: 'Gerecycled, statiegeld uitbetaald',
    PRODUCT_DATA_UPDATED: 'Productgegevens bijgewerkt',
    DPP_STATUS_CHANGED: 'Status van het paspoort gewijzigd',
  },
  chain: {
    title: 'Controleren op de blockchain',
    intro:
      'Elke stap hierboven is verankerd in een openbare blockchain. Met deze verwijzingen kan iedereen dat onafhankelijk controleren.',
    contract: 'Smart contract',
    issued: 'Paspoort uitgegeven',
    pending: 'Wordt op de blockchain verankerd…',
    explorer: 'Openen in de block explorer',
  },
  owner: {
    title: 'Wat u kunt doen',
    claimTitle: 'Eigendom opeisen',
    claimText:
      'Dit artikel tweedehands gekocht en betaald? Maak het van u: meld u aan met het account waarmee u het kocht en houd dan uw telefoon bij de tag van het product.',
    claimNeedsNfc:
      'Om het op te eisen hebt u een telefoon nodig waarvan de browser NFC-tags leest (Chrome op Android): open deze pagina daar of houd die telefoon bij de tag.',
    email: 'E-mail',
    password: 'Wachtwoord',
    claimButton: 'Aanmelden en tag aanraken',
    claimSigningIn: 'Aanmelden…',
    claimHold: 'Houd nu uw telefoon bij de tag op het product…',
    claimSending: 'Uw eigendom wordt op de blockchain vastgelegd…',
    claimDone: 'Klaar: dit artikel is nu van u. Het eigendom is op de blockchain naar uw account overgegaan.',
    claimRefused: 'Het opeisen is geweigerd: {reason}',
    signInFailed: 'Aanmelden mislukt: controleer uw e-mail en wachtwoord.',
    careTitle: 'Onderhoud en reparatie',
    careLink: 'Onderhoudsinstructies',
    repairLink: 'Reparatieservice',
    resaleTitle: 'Tweedehands verkopen',
    resaleText: 'Het paspoort gaat mee naar de volgende eigenaar, die het opeist door de tag aan te raken.',
    resaleLink: 'Doorverkopen via {brand}',
    recyclingTitle: 'Recyclen',
    recyclingText:
      'Breng het aan het einde van zijn levensduur naar een gecertificeerde recycler. Het recyclen wordt op de blockchain vastgelegd en geeft het statiegeld van {deposit} vrij dat bij de uitgifte van dit paspoort is vastgezet.',
    recyclingTextNoDeposit:
      'Breng het aan het einde van zijn levensduur naar een gecertificeerde recycler: het recyclen wordt in dit paspoort op de blockchain vastgelegd.',
    recyclingDone: 'Dit product is gerecycled en het statiegeld van {deposit} is aan de recycler uitbetaald.',
    recyclingWhere: 'Waar u het kunt recyclen',
    contactTitle: 'Contact met {brand}',
    contactEmail: 'Schrijf naar {email}',
    contactWeb: 'Klantenservice',
  },
  machine: {
    title: 'Machineleesbaar paspoort',
    credential: 'Verifieerbaar bewijs (JSON-LD)',
    linkset: 'GS1-linkset',
    aas: 'Asset administration shell (AAS)',
  },
  level: {
    product: 'Product {gtin}',
    productBy: 'Product {gtin} ({manufacturer})',
    withBatch: '{product}, partij {lot}',
    model: 'Modelpaspoort',
    batch: 'Partijpaspoort',
    modelScope: 'gedeeld door elk exemplaar van dit product',
    batchScope: 'gedeeld door elk exemplaar van partij {lot}',
    partOfModel: 'Onderdeel van het {link}.',
    modelOf: 'modelpaspoort van {name}',
    passportId: 'Paspoort-ID',
    modelItems:
      'Elk exemplaar van dit product heeft een eigen paspoort onder het serienummer dat erop staat; het toont de gegevens van dit model samen met de eigen gegevens.',
    batchItems:
      'Elk exemplaar van deze partij heeft een eigen paspoort onder het serienummer dat erop staat; het toont de gegevens van deze partij samen met de eigen gegevens.',
    document: 'Paspoortdocument (EN 18222, JSON)',
    publicView: 'Openbare weergave (JSON-LD)',
    digitalLink: 'GS1 Digital Link',
  },
  productData: nlProductData,
  materials: {
    cotton: 'Katoen',
    organic_cotton: 'Biologisch katoen',
    recycled_cotton: 'Gerecycled katoen',
    polyester: 'Polyester',
    recycled_polyester: 'Gerecycled polyester',
    polyamide: 'Polyamide',
    nylon: 'Nylon',
    elastane: 'Elastaan',
    wool: 'Wol',
    merino_wool: 'Merinowol',
    cashmere: 'Kasjmier',
    silk: 'Zijde',
    linen: 'Linnen',
    hemp: 'Hennep',
    viscose: 'Viscose',
    lyocell: 'Lyocell',
    modal: 'Modal',
    acrylic: 'Acryl',
    leather: 'Leer',
    down: 'Dons',
    feathers: 'Veren',
    rubber: 'Rubber',
    metal: 'Metaal',
  },
};
