import { readFile } from 'node:fs/promises';
import { formatReport } from './checks.ts';
import { type VerifyOptions, verifyEvidence } from './verify-evidence.ts';

/** `npm run cli -- verify-evidence FILE --rpc URL`: prints the report, answers the exit code (0: none failed). */
export async function verifyEvidenceFile(file: string, options: VerifyOptions): Promise<0 | 1> {
  let bundle: unknown;
  try {
    bundle = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    console.log(`FAIL     bundle: ${file} is not readable JSON (${(error as Error).message})`);
    return 1;
  }
  const report = formatReport(await verifyEvidence(bundle, options));
  console.log(report.text);
  return report.exitCode;
}
