/** Chip model name reported for every successfully verified tap. */
export const NTAG_424_DNA = 'NTAG 424 DNA';
export type ChipType = typeof NTAG_424_DNA;

/**
 * Factory-default AES key of every NTAG 424 DNA key slot (16 zero bytes).
 * Shared instance: treat as read-only (never write into it or pass it to code that does).
 */
export const FACTORY_DEFAULT_KEY: Buffer = Buffer.alloc(16);

/** NTAG 424 DNA carries a 7-byte ISO/IEC 14443-3 UID. */
export const NTAG_424_DNA_UID_BYTES = 7;
/** SDMReadCtr is a 24-bit counter, transmitted LSB first inside PICCData. */
export const SDM_READ_CTR_BYTES = 3;
export const SDM_READ_CTR_MAX = 0xffffff;
/** Truncated SDMMAC (MACt) length. */
export const SDM_MAC_BYTES = 8;
