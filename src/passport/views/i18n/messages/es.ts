import { esProductData } from '../fields/es.ts';
import type { Messages } from './en.ts';

/** Español. Keys and `{placeholders}` as in en.ts. */
export const es: Messages = {
  pageTitle: '{product} · Pasaporte digital de producto',
  masthead: 'Pasaporte digital de producto',
  skipLink: 'Ir a los datos del producto',
  testBanner: 'Entorno de prueba: este pasaporte no describe un producto real.',
  languageLabel: 'Idioma',
  brandLogo: 'Logotipo de {brand}',
  verdict: {
    authentic: {
      title: 'Auténtico',
      message:
        'La firma criptográfica de la etiqueta es auténtica y se ha usado por primera vez: este es el producto que describe el pasaporte.',
    },
    replayed: {
      title: 'Repetida',
      message:
        'Esta firma de la etiqueta ya se había usado. Una etiqueta copiada solo puede repetir firmas antiguas. Vuelva a acercar el teléfono a la etiqueta del producto: una etiqueta auténtica firma cada lectura de nuevo.',
    },
    forged: {
      title: 'No auténtico',
      message:
        'La firma de la etiqueta no coincide con el chip de este producto. No confíe en la etiqueta de este artículo.',
    },
    unverifiable: {
      title: 'Aún no se puede comprobar',
      message:
        'El fabricante no ha configurado las claves que comprueban la etiqueta de este producto, así que su firma no se puede verificar. El pasaporte de abajo es auténtico; la etiqueta no queda ni confirmada ni refutada.',
    },
    expired: {
      title: 'Vuelva a escanear la etiqueta',
      message:
        'El resultado de esta lectura tiene más de diez minutos. Acerque el teléfono o escanee la etiqueta para una nueva comprobación.',
    },
    revoked: {
      title: 'Pasaporte revocado',
      message: 'El fabricante ha revocado este pasaporte: no lo tome como prueba de este producto.',
    },
    recycled: {
      title: 'Producto reciclado',
      message: 'Este producto se ha reciclado; su pasaporte está cerrado y se conserva como registro.',
    },
    registered: {
      title: 'Pasaporte registrado',
      message:
        'Este pasaporte está registrado en la cadena de bloques: los datos del producto y el historial de abajo son del fabricante.',
    },
    checkedAt: 'Etiqueta comprobada el {time}.',
    issuedOn: 'Emitido el {date}.',
  },
  nfc: {
    title: 'Compruebe la etiqueta usted mismo',
    intro:
      'El producto lleva una etiqueta NFC que firma cada lectura con una clave que solo tiene el chip auténtico.',
    button: 'Escanear la etiqueta',
    tapHint:
      'Para comprobar el producto que tiene en la mano, acerque el teléfono a su etiqueta NFC: esta página se abre con el resultado.',
    checking: 'Comprobando la firma de la etiqueta…',
    hold: 'Acerque el teléfono a la etiqueta del producto…',
    readError: 'No se pudo leer la etiqueta. Mantenga el teléfono quieto sobre la etiqueta.',
    noUrl: 'Esta etiqueta no contiene ninguna dirección web. No es una etiqueta de pasaporte.',
    offline: 'La comprobación ha fallado: no hay conexión con el servicio de pasaportes. Inténtelo de nuevo.',
    denied: 'Se ha denegado el permiso de NFC.',
    unavailable: 'El NFC no está disponible.',
    failed: 'No se pudo comprobar esta etiqueta.',
    again: '{verdict}. Puede volver a escanear.',
  },
  status: {
    label: 'Estado',
    ACTIVE: 'Activo',
    RECYCLED: 'Reciclado',
    REVOKED: 'Revocado',
    SUSPENDED: 'Suspendido',
    ARCHIVED: 'Archivado',
  },
  notice: {
    revokedLead: 'Revocado.',
    revoked: 'El fabricante ha revocado este pasaporte.',
    revokedOn: 'El fabricante revocó este pasaporte el {date}.',
    revokedReason: 'Motivo indicado: {reason}',
    revokedMeaning:
      'Qué significa para usted: el pasaporte ya no demuestra que este producto sea auténtico ni de quién es, y ya no permite revenderlo ni reclamar su propiedad. Si lo compró hace poco, póngase en contacto con el vendedor o la marca.',
    recycledLead: 'Reciclado.',
    recycled: 'Este producto se ha reciclado; su pasaporte está cerrado y se conserva como registro.',
    recycledOn: 'Este producto se recicló el {date}; su pasaporte está cerrado y se conserva como registro.',
    recycledMeaning:
      'Qué significa para usted: el producto ha llegado al final de su vida útil y su depósito se pagó al reciclador. Si aún tiene este artículo, su etiqueta ya no demuestra nada: póngase en contacto con la marca.',
    suspendedLead: 'Suspendido.',
    suspended:
      'El fabricante ha suspendido este pasaporte por ahora: sus datos no se actualizan hasta que se reactive.',
    archivedLead: 'Archivado.',
    archived:
      'El fabricante ha cerrado este pasaporte; se conserva sin cambios como registro, con todas sus versiones anteriores.',
  },
  reopened: {
    title: 'El enlace de esta etiqueta ya se había abierto.',
    body: 'Este enlace se ha abierto {count} veces desde el {since}: es posible que el producto que tiene en la mano no lleve la etiqueta original.',
    advice:
      'Una etiqueta auténtica escribe un enlace nuevo en cada lectura. Acerque de nuevo el teléfono a la propia etiqueta (no a un enlace guardado, una foto o un código impreso). Si una lectura nueva también muestra este aviso, o el producto solo tiene un código impreso, no confíe en él: pregunte al vendedor o informe a la marca.',
  },
  facts: {
    manufacturer: 'Fabricante',
    gtin: 'GTIN',
    serial: 'Número de serie',
    batch: 'Lote',
    origin: 'País de origen',
    category: 'Categoría',
    conformity: 'Declaración de conformidad',
    conformityLink: 'Ver la declaración UE de conformidad',
    scans: 'Lecturas de etiqueta verificadas',
    materials: 'Materiales',
    material: '{material}: {share}',
    partOf: 'Forma parte de {levels}: este pasaporte muestra sus datos junto con los propios.',
    and: 'y',
    modelLabel: 'modelo {gtin}',
    batchLabel: 'lote {lot}',
    modelPassport: 'pasaporte del modelo',
    batchPassport: 'pasaporte del lote',
    fromModel: 'del pasaporte del modelo',
    fromBatch: 'del pasaporte del lote',
  },
  brandTexts: {
    fallback:
      'La marca proporcionó los textos de este producto en {shown}, no en {wanted}: se muestran en {shown}.',
  },
  history: {
    title: 'Historial',
    MINT: 'Pasaporte emitido',
    QC_PASSED: 'Control de calidad superado',
    EXPORT_CLEARED: 'Exportación despachada',
    IMPORT_CLEARED: 'Importación despachada',
    CUSTOMS_CLEARED: 'Despachado de aduanas',
    SHIPPED: 'Enviado',
    DELIVERED: 'Entregado',
    INITIAL_SALE: 'Primera venta',
    SOLD: 'Vendido',
    AUTHORIZE_CLAIM: 'Reventa autorizada',
    CLAIM_OWNERSHIP: 'Propiedad reclamada',
    RECYCLE_TRANSFER: 'Reciclado, depósito pagado',
    PRODUCT_DATA_UPDATED: 'Datos del producto actualizados',
    DPP_STATUS_CHANGED: 'Estado del pasaporte cambiado',
  },
  chain: {
    title: 'Verificar en la cadena de bloques',
    intro:
      'Cada paso anterior está anclado en una cadena de bloques pública. Con estas referencias cualquiera puede comprobarlo de forma independiente.',
    contract: 'Contrato inteligente',
    issued: 'Pasaporte emitido',
    pending: 'Anclándose en la cadena de bloques…',
    explorer: 'Abrir en el explorador de bloques',
  },
  owner: {
    title: 'Qué puede hacer',
    claimTitle: 'Reclamar la propiedad',
    claimText:
      '¿Ha comprado y pagado este artículo de segunda mano? Hágalo suyo: inicie sesión con la cuenta con la que lo compró y acerque el teléfono a la etiqueta del producto.',
    claimNeedsNfc:
      'Para reclamarlo necesita un teléfono cuyo navegador lea etiquetas NFC (Chrome en Android): abra esta página allí o acerque ese teléfono a la etiqueta.',
    email: 'Correo electrónico',
    password: 'Contraseña',
    claimButton: 'Iniciar sesión y acercar la etiqueta',
    claimSigningIn: 'Iniciando sesión…',
    claimHold: 'Ahora acerque el teléfono a la etiqueta del producto…',
    claimSending: 'Registrando su propiedad en la cadena de bloques…',
    claimDone: 'Listo: este artículo ya es suyo. La propiedad pasó a su cuenta en la cadena de bloques.',
    claimRefused: 'La reclamación fue rechazada: {reason}',
    signInFailed: 'No se pudo iniciar sesión: compruebe el correo y la contraseña.',
    careTitle: 'Cuidado y reparación',
    careLink: 'Instrucciones de cuidado',
    repairLink: 'Servicio de reparación',
    resaleTitle: 'Revenderlo de segunda mano',
    resaleText:
      'Su pasaporte pasa con él al siguiente propietario, que lo reclama acercando el teléfono a la etiqueta.',
    resaleLink: 'Revender con {brand}',
    recyclingTitle: 'Reciclarlo',
    recyclingText:
      'Al final de su vida útil, llévelo a un reciclador certificado. El reciclaje se registra en la cadena de bloques y libera el depósito de {deposit} bloqueado al emitir este pasaporte.',
    recyclingTextNoDeposit:
      'Al final de su vida útil, llévelo a un reciclador certificado: el reciclaje se registra en este pasaporte en la cadena de bloques.',
    recyclingDone: 'Este producto se recicló y su depósito de {deposit} se pagó al reciclador.',
    recyclingWhere: 'Dónde reciclarlo',
    contactTitle: 'Contactar con {brand}',
    contactEmail: 'Escribir a {email}',
    contactWeb: 'Atención al cliente',
  },
  machine: {
    title: 'Pasaporte legible por máquinas',
    credential: 'Credencial verificable (JSON-LD)',
    linkset: 'Linkset de GS1',
    aas: 'Asset administration shell (AAS)',
  },
  level: {
    product: 'Producto {gtin}',
    productBy: 'Producto {gtin} ({manufacturer})',
    withBatch: '{product}, lote {lot}',
    model: 'Pasaporte del modelo',
    batch: 'Pasaporte del lote',
    modelScope: 'común a todas las unidades de este producto',
    batchScope: 'común a todas las unidades del lote {lot}',
    partOfModel: 'Forma parte del {link}.',
    modelOf: 'pasaporte del modelo {name}',
    passportId: 'ID del pasaporte',
    modelItems:
      'Cada unidad de este producto tiene su propio pasaporte en el número de serie impreso en ella; muestra los datos de este modelo junto con los suyos.',
    batchItems:
      'Cada unidad de este lote tiene su propio pasaporte en el número de serie impreso en ella; muestra los datos de este lote junto con los suyos.',
    document: 'Documento del pasaporte (EN 18222, JSON)',
    publicView: 'Vista pública (JSON-LD)',
    digitalLink: 'GS1 Digital Link',
  },
  productData: esProductData,
  materials: {
    cotton: 'Algodón',
    organic_cotton: 'Algodón orgánico',
    recycled_cotton: 'Algodón reciclado',
    polyester: 'Poliéster',
    recycled_polyester: 'Poliéster reciclado',
    polyamide: 'Poliamida',
    nylon: 'Nailon',
    elastane: 'Elastano',
    wool: 'Lana',
    merino_wool: 'Lana merina',
    cashmere: 'Cachemira',
    silk: 'Seda',
    linen: 'Lino',
    hemp: 'Cáñamo',
    viscose: 'Viscosa',
    lyocell: 'Lyocell',
    modal: 'Modal',
    acrylic: 'Acrílico',
    leather: 'Cuero',
    down: 'Plumón',
    feathers: 'Plumas',
    rubber: 'Caucho',
    metal: 'Metal',
  },
};
