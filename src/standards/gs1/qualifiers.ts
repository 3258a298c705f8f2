/**
 * GS1's character set 82 (GS1 General Specifications 7.11, Figure 7.11-1): what batch/lot (AI 10) and serial
 * (AI 21) values may contain, at most 20 characters each. Values arrive percent-decoded.
 */
const AI82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]{1,20}$/;

export function isAi82Value(value: string): boolean {
  return AI82.test(value);
}
