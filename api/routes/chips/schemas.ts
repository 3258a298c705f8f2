import { z } from 'zod';

export const chipUidField = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .describe(
    'Chip UID: 7 bytes as hex digits, optionally colon separated (04:DE:5F:1E:AC:C0:40 or 04DE5F1EACC040).',
  );

export const hexField = (bytes: number, name: string) =>
  z
    .string()
    .trim()
    .regex(
      new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`),
      `${name} must be ${bytes} bytes as ${bytes * 2} hex digits`,
    );
