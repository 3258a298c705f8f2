import type { enProductData } from './en.ts';

/** The shape of every language's product-group vocabulary (en.ts's). */
export type ProductDataMessages = typeof enProductData;
