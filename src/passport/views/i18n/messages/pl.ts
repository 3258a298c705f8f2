import { plProductData } from '../fields/pl.ts';
import type { Messages } from './en.ts';

/** Polski. Keys and `{placeholders}` as in en.ts. */
export const pl: Messages = {
  pageTitle: '{product} · Cyfrowy paszport produktu',
  masthead: 'Cyfrowy paszport produktu',
  skipLink: 'Przejdź do danych produktu',
  testBanner: 'Środowisko testowe: ten paszport nie opisuje prawdziwego produktu.',
  languageLabel: 'Język',
  brandLogo: 'Logo {brand}',
  verdict: {
    authentic: {
      title: 'Oryginalny',
      message:
        'Podpis kryptograficzny etykiety jest prawdziwy i został użyty po raz pierwszy: to produkt opisany w paszporcie.',
    },
    replayed: {
      title: 'Powtórzony',
      message:
        'Ten podpis etykiety był już użyty. Skopiowana etykieta może tylko powtarzać stare podpisy. Przyłóż telefon ponownie do etykiety produktu: prawdziwa etykieta podpisuje każde przyłożenie od nowa.',
    },
    forged: {
      title: 'Nieoryginalny',
      message: 'Podpis etykiety nie pasuje do chipu tego produktu. Nie ufaj etykiecie tego artykułu.',
    },
    unverifiable: {
      title: 'Jeszcze nie do sprawdzenia',
      message:
        'Producent nie skonfigurował jeszcze kluczy do sprawdzania etykiety tego produktu, więc jej podpisu nie można zweryfikować. Paszport poniżej jest prawdziwy; etykieta nie jest ani potwierdzona, ani podważona.',
    },
    expired: {
      title: 'Zeskanuj etykietę ponownie',
      message:
        'Wynik tego przyłożenia ma ponad dziesięć minut. Przyłóż telefon lub zeskanuj etykietę, aby sprawdzić ją ponownie.',
    },
    revoked: {
      title: 'Paszport unieważniony',
      message: 'Producent unieważnił ten paszport: nie traktuj go jako dowodu dotyczącego tego produktu.',
    },
    recycled: {
      title: 'Produkt poddany recyklingowi',
      message:
        'Ten produkt został poddany recyklingowi; jego paszport jest zamknięty i przechowywany jako zapis.',
    },
    registered: {
      title: 'Zarejestrowany paszport',
      message:
        'Ten paszport jest zapisany w blockchainie: dane produktu i historia poniżej pochodzą od producenta.',
    },
    checkedAt: 'Etykieta sprawdzona {time}.',
    issuedOn: 'Wydany {date}.',
  },
  nfc: {
    title: 'Sprawdź etykietę samodzielnie',
    intro:
      'Produkt ma etykietę NFC, która podpisuje każde przyłożenie kluczem, który ma tylko oryginalny chip.',
    button: 'Zeskanuj etykietę',
    tapHint:
      'Aby sprawdzić produkt, który trzymasz, przyłóż telefon do jego etykiety NFC: ta strona otworzy się z wynikiem.',
    checking: 'Sprawdzanie podpisu etykiety…',
    hold: 'Przyłóż telefon do etykiety na produkcie…',
    readError: 'Nie udało się odczytać etykiety. Trzymaj telefon nieruchomo przy etykiecie.',
    noUrl: 'Ta etykieta nie zawiera adresu internetowego. To nie jest etykieta paszportu.',
    offline: 'Sprawdzenie nie powiodło się: brak połączenia z usługą paszportów. Spróbuj ponownie.',
    denied: 'Odmówiono uprawnienia NFC.',
    unavailable: 'NFC jest niedostępne.',
    failed: 'Nie udało się sprawdzić tej etykiety.',
    again: '{verdict}. Możesz skanować ponownie.',
  },
  status: {
    label: 'Status',
    ACTIVE: 'Aktywny',
    RECYCLED: 'Po recyklingu',
    REVOKED: 'Unieważniony',
    SUSPENDED: 'Zawieszony',
    ARCHIVED: 'Zarchiwizowany',
  },
  notice: {
    revokedLead: 'Unieważniony.',
    revoked: 'Producent unieważnił ten paszport.',
    revokedOn: 'Producent unieważnił ten paszport {date}.',
    revokedReason: 'Podany powód: {reason}',
    revokedMeaning:
      'Co to dla Ciebie oznacza: paszport nie dowodzi już, że produkt jest oryginalny ani do kogo należy, i nie można już przez niego odsprzedać produktu ani przejąć jego własności. Jeśli kupiłeś go niedawno, skontaktuj się ze sprzedawcą lub marką.',
    recycledLead: 'Po recyklingu.',
    recycled:
      'Ten produkt został poddany recyklingowi; jego paszport jest zamknięty i przechowywany jako zapis.',
    recycledOn:
      'Ten produkt został poddany recyklingowi {date}; jego paszport jest zamknięty i przechowywany jako zapis.',
    recycledMeaning:
      'Co to dla Ciebie oznacza: produkt zakończył swój cykl życia, a jego kaucja została wypłacona recyklerowi. Jeśli nadal masz ten artykuł, jego etykieta niczego już nie dowodzi: skontaktuj się z marką.',
    suspendedLead: 'Zawieszony.',
    suspended:
      'Producent tymczasowo zawiesił ten paszport: jego dane nie są aktualizowane do czasu ponownej aktywacji.',
    archivedLead: 'Zarchiwizowany.',
    archived:
      'Producent zamknął ten paszport; jest przechowywany bez zmian jako zapis, wraz ze wszystkimi wcześniejszymi wersjami.',
  },
  reopened: {
    title: 'Link tej etykiety był już otwierany.',
    body: 'Ten link otwarto {count} razy od {since}: produkt, który trzymasz, może nie mieć oryginalnej etykiety.',
    advice:
      'Oryginalna etykieta zapisuje nowy link przy każdym zbliżeniu. Przyłóż telefon ponownie do samej etykiety (nie do zapisanego linku, zdjęcia ani wydrukowanego kodu). Jeśli także nowe zbliżenie pokazuje tę informację albo produkt ma tylko wydrukowany kod, nie polegaj na nim: zapytaj sprzedawcę lub zgłoś to marce.',
  },
  facts: {
    manufacturer: 'Producent',
    gtin: 'GTIN',
    serial: 'Numer seryjny',
    batch: 'Partia',
    origin: 'Kraj pochodzenia',
    category: 'Kategoria',
    conformity: 'Deklaracja zgodności',
    conformityLink: 'Zobacz deklarację zgodności UE',
    scans: 'Zweryfikowane skany etykiety',
    materials: 'Materiały',
    material: '{material}: {share}',
    partOf: 'Część {levels}: ten paszport pokazuje ich dane razem z własnymi.',
    and: 'i',
    modelLabel: 'model {gtin}',
    batchLabel: 'partia {lot}',
    modelPassport: 'paszport modelu',
    batchPassport: 'paszport partii',
    fromModel: 'z paszportu modelu',
    fromBatch: 'z paszportu partii',
  },
  brandTexts: {
    fallback:
      'Marka podała teksty tego produktu w języku: {shown}, a nie: {wanted}. Są wyświetlane w języku: {shown}.',
  },
  history: {
    title: 'Historia',
    MINT: 'Paszport wydany',
    QC_PASSED: 'Kontrola jakości zaliczona',
    EXPORT_CLEARED: 'Odprawa wywozowa',
    IMPORT_CLEARED: 'Odprawa przywozowa',
    CUSTOMS_CLEARED: 'Odprawa celna',
    SHIPPED: 'Wysłany',
    DELIVERED: 'Dostarczony',
    INITIAL_SALE: 'Pierwsza sprzedaż',
    SOLD: 'Sprzedany',
    AUTHORIZE_CLAIM: 'Odsprzedaż zatwierdzona',
    CLAIM_OWNERSHIP: 'Własność przejęta',
    RECYCLE_TRANSFER: 'Recykling, kaucja wypłacona',
    PRODUCT_DATA_UPDATED: 'Dane produktu zaktualizowane',
    DPP_STATUS_CHANGED: 'Status paszportu zmieniony',
  },
  chain: {
    title: 'Sprawdź w blockchainie',
    intro:
      'Każdy powyższy krok jest zakotwiczony w publicznym blockchainie. Dzięki tym odnośnikom każdy może to niezależnie sprawdzić.',
    contract: 'Inteligentny kontrakt',
    issued: 'Paszport wydany',
    pending: 'Trwa zakotwiczanie w blockchainie…',
    explorer: 'Otwórz w eksploratorze bloków',
  },
  owner: {
    title: 'Co możesz zrobić',
    claimTitle: 'Przejmij własność',
    claimText:
      'Kupiłeś i opłaciłeś ten artykuł z drugiej ręki? Spraw, by był Twój: zaloguj się na konto, na które go kupiłeś, a potem przyłóż telefon do etykiety produktu.',
    claimNeedsNfc:
      'Do przejęcia potrzebny jest telefon, którego przeglądarka odczytuje etykiety NFC (Chrome na Androidzie): otwórz tę stronę tam lub przyłóż ten telefon do etykiety.',
    email: 'E-mail',
    password: 'Hasło',
    claimButton: 'Zaloguj się i przyłóż etykietę',
    claimSigningIn: 'Logowanie…',
    claimHold: 'Teraz przyłóż telefon do etykiety na produkcie…',
    claimSending: 'Zapisywanie Twojej własności w blockchainie…',
    claimDone: 'Gotowe: ten artykuł jest teraz Twój. Własność przeszła w blockchainie na Twoje konto.',
    claimRefused: 'Przejęcie zostało odrzucone: {reason}',
    signInFailed: 'Logowanie nie powiodło się: sprawdź e-mail i hasło.',
    careTitle: 'Pielęgnacja i naprawa',
    careLink: 'Instrukcja pielęgnacji',
    repairLink: 'Serwis naprawczy',
    resaleTitle: 'Sprzedaj jako używany',
    resaleText:
      'Paszport przechodzi wraz z nim na kolejnego właściciela, który przejmuje go, przykładając telefon do etykiety.',
    resaleLink: 'Odsprzedaj przez {brand}',
    recyclingTitle: 'Oddaj do recyklingu',
    recyclingText:
      'Pod koniec użytkowania oddaj go certyfikowanemu recyklerowi. Recykling jest zapisywany w blockchainie i zwalnia kaucję {deposit} zablokowaną przy wydaniu tego paszportu.',
    recyclingTextNoDeposit:
      'Pod koniec użytkowania oddaj go certyfikowanemu recyklerowi: recykling zostanie zapisany w tym paszporcie w blockchainie.',
    recyclingDone:
      'Ten produkt został poddany recyklingowi, a jego kaucja {deposit} została wypłacona recyklerowi.',
    recyclingWhere: 'Gdzie oddać do recyklingu',
    contactTitle: 'Kontakt: {brand}',
    contactEmail: 'Napisz na {email}',
    contactWeb: 'Obsługa klienta',
  },
  machine: {
    title: 'Paszport do odczytu maszynowego',
    credential: 'Weryfikowalne poświadczenie (JSON-LD)',
    linkset: 'Linkset GS1',
    aas: 'Asset administration shell (AAS)',
  },
  level: {
    product: 'Produkt {gtin}',
    productBy: 'Produkt {gtin} ({manufacturer})',
    withBatch: '{product}, partia {lot}',
    model: 'Paszport modelu',
    batch: 'Paszport partii',
    modelScope: 'wspólny dla każdego egzemplarza tego produktu',
    batchScope: 'wspólny dla każdego egzemplarza partii {lot}',
    partOfModel: 'Należy do: {link}.',
    modelOf: 'paszport modelu {name}',
    passportId: 'Identyfikator paszportu',
    modelItems:
      'Każdy egzemplarz tego produktu ma własny paszport pod wydrukowanym na nim numerem seryjnym; pokazuje on dane tego modelu razem z własnymi.',
    batchItems:
      'Każdy egzemplarz tej partii ma własny paszport pod wydrukowanym na nim numerem seryjnym; pokazuje on dane tej partii razem z własnymi.',
    document: 'Dokument paszportu (EN 18222, JSON)',
    publicView: 'Widok publiczny (JSON-LD)',
    digitalLink: 'GS1 Digital Link',
  },
  productData: plProductData,
  materials: {
    cotton: 'Bawełna',
    organic_cotton: 'Bawełna organiczna',
    recycled_cotton: 'Bawełna z recyklingu',
    polyester: 'Poliester',
    recycled_polyester: 'Poliester z recyklingu',
    polyamide: 'Poliamid',
    nylon: 'Nylon',
    elastane: 'Elastan',
    wool: 'Wełna',
    merino_wool: 'Wełna merino',
    cashmere: 'Kaszmir',
    silk: 'Jedwab',
    linen: 'Len',
    hemp: 'Konopie',
    viscose: 'Wiskoza',
    lyocell: 'Lyocell',
    modal: 'Modal',
    acrylic: 'Akryl',
    leather: 'Skóra',
    down: 'Puch',
    feathers: 'Pierze',
    rubber: 'Guma',
    metal: 'Metal',
  },
};
