import { inflateRawSync } from 'node:zlib';

/**
 * The first worksheet of an Office Open XML workbook (.xlsx) as rows of cell text: a ZIP archive read through
 * its central directory, shared strings and inline strings resolved, numbers and booleans as written. Enough
 * for a spreadsheet of plain values (what an import reads); formulas give their cached value.
 */
export function readXlsx(file: Buffer): string[][] {
  const entries = zipEntries(file);
  const text = (name: string) => {
    const entry = entries.get(name);
    return entry === undefined ? undefined : entry().toString('utf8');
  };
  const shared = [...(text('xl/sharedStrings.xml') ?? '').matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
    joinTexts(m[1]!),
  );
  const sheetName =
    ['xl/worksheets/sheet1.xml'].find((name) => entries.has(name)) ??
    [...entries.keys()].filter((name) => /^xl\/worksheets\/sheet\d+\.xml$/.test(name)).sort()[0];
  const sheet = sheetName === undefined ? undefined : text(sheetName);
  if (sheet === undefined) throw new SpreadsheetUnreadable('The workbook has no worksheet.');
  const rows: string[][] = [];
  for (const rowMatch of sheet.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const number = Number(/\br="(\d+)"/.exec(rowMatch[1]!)?.[1] ?? rows.length + 1);
    const cells: string[] = [];
    for (const cellMatch of (rowMatch[2] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attributes = cellMatch[1]!;
      const ref = /\br="([A-Z]+)\d+"/.exec(attributes)?.[1];
      const column = ref === undefined ? cells.length : columnIndex(ref);
      const type = /\bt="(\w+)"/.exec(attributes)?.[1];
      const body = cellMatch[2] ?? '';
      const value = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      cells[column] =
        type === 's'
          ? (shared[Number(value)] ?? '')
          : type === 'inlineStr'
            ? joinTexts(body)
            : value === undefined
              ? ''
              : unescapeXml(value);
    }
    while (rows.length < number - 1) rows.push([]);
    rows.push(Array.from(cells, (cell) => cell ?? ''));
  }
  return rows;
}

export class SpreadsheetUnreadable extends Error {}

function joinTexts(xml: string): string {
  return [...xml.matchAll(/<t\b[^>]*>([\s\S]*?)<\/t>/g)].map((m) => unescapeXml(m[1]!)).join('');
}

function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[entity]!;
  });
}

/** The archive's files by name, each read (and inflated) when asked for. */
function zipEntries(file: Buffer): Map<string, () => Buffer> {
  const end = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > file.length) throw new SpreadsheetUnreadable('The file is not an XLSX workbook.');
  const count = file.readUInt16LE(end + 10);
  let offset = file.readUInt32LE(end + 16);
  const entries = new Map<string, () => Buffer>();
  for (let i = 0; i < count; i++) {
    if (offset + 46 > file.length || file.readUInt32LE(offset) !== 0x02014b50)
      throw new SpreadsheetUnreadable('The XLSX workbook is damaged.');
    const method = file.readUInt16LE(offset + 10);
    const size = file.readUInt32LE(offset + 20);
    const nameLength = file.readUInt16LE(offset + 28);
    const skip = nameLength + file.readUInt16LE(offset + 30) + file.readUInt16LE(offset + 32);
    const local = file.readUInt32LE(offset + 42);
    const name = file.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.set(name, () => {
      const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
      const data = file.subarray(start, start + size);
      if (method === 0) return data;
      if (method === 8) return inflateRawSync(data);
      throw new SpreadsheetUnreadable('The XLSX workbook uses a compression this service does not read.');
    });
    offset += 46 + skip;
  }
  return entries;
}
