import { parseCsv } from './csv.ts';
import { BULK_PROVISION_MAX_ITEMS, erpMetadata } from './erp-metadata.ts';
import type { ErpMetadata } from './provision.ts';
import { readXlsx, SpreadsheetUnreadable } from './xlsx.ts';

/** The columns of an import: those of a bulk provisioning item's erp_metadata (docs/console.md). */
export const IMPORT_COLUMNS = ['material_number', 'order_id', 'conformity_url'] as const;
const REQUIRED = ['material_number', 'order_id'];
/** Most rows of one file: as many as one bulk provisioning call takes. */
export const IMPORT_MAX_ROWS = BULK_PROVISION_MAX_ITEMS;

export interface ImportRowError {
  /** The spreadsheet's row number (the header is row 1). */
  row: number;
  column: string;
  message: string;
}

/** A data row: its spreadsheet row number and its cells by column (empty cells left out). */
export interface SpreadsheetRow {
  row: number;
  cells: Record<string, string>;
}

/**
 * Reads a CSV or XLSX file: the problems of the file itself (unreadable, header, no rows, too many rows), or
 * its data rows (blank rows skipped, row numbers as the spreadsheet shows them).
 */
export function readSpreadsheet(file: Buffer): { problems: ImportRowError[]; rows: SpreadsheetRow[] } {
  const problems: ImportRowError[] = [];
  const refuse = (row: number, column: string, message: string) => {
    problems.push({ row, column, message });
    return { problems, rows: [] };
  };
  let rows: string[][];
  try {
    rows = isZip(file) ? readXlsx(file) : parseCsv(file.toString('utf8'));
  } catch (error) {
    if (error instanceof SpreadsheetUnreadable) return refuse(1, '', error.message);
    throw error;
  }
  const header = (rows[0] ?? []).map((cell) => cell.trim().toLowerCase());
  for (const [i, name] of header.entries()) {
    if (name !== '' && !(IMPORT_COLUMNS as readonly string[]).includes(name))
      refuse(1, name, `Unknown column: the columns are ${IMPORT_COLUMNS.join(', ')}`);
    else if (header.indexOf(name) !== i && name !== '') refuse(1, name, 'The column appears twice');
  }
  for (const name of REQUIRED)
    if (!header.includes(name)) refuse(1, name, 'Required column missing from the header row');
  if (problems.length > 0) return { problems, rows: [] };

  const data = rows
    .map((cells, index) => ({ cells, row: index + 1 }))
    .slice(1)
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  if (data.length === 0) return refuse(2, '', 'The spreadsheet has no rows under its header');
  if (data.length > IMPORT_MAX_ROWS)
    return refuse(
      IMPORT_MAX_ROWS + 2,
      '',
      `At most ${IMPORT_MAX_ROWS} rows per file: split it into several files`,
    );
  return {
    problems,
    rows: data.map(({ cells, row }) => {
      const item: Record<string, string> = {};
      for (const [i, name] of header.entries()) {
        const value = cells[i]?.trim() ?? '';
        if (name !== '' && value !== '') item[name] = value;
      }
      return { row, cells: item };
    }),
  };
}

/** A row checked with bulk provisioning's rule: the item to write, or its problems by column. */
export function checkRow(row: SpreadsheetRow): { item: ErpMetadata } | { problems: ImportRowError[] } {
  const parsed = erpMetadata.safeParse(row.cells);
  if (parsed.success) return { item: parsed.data };
  return {
    problems: parsed.error.issues.map((issue) => {
      const column = String(issue.path[0] ?? '');
      return {
        row: row.row,
        column,
        message: row.cells[column] === undefined ? 'Required: the cell is empty' : issue.message,
      };
    }),
  };
}

function isZip(file: Buffer): boolean {
  return file.length > 4 && file.readUInt32LE(0) === 0x04034b50;
}
