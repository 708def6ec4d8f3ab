// Repairs an OCR'd MRZ using its own structure: filler after the names, and check digits that tell
// which reading of an ambiguous O/0 in the document number is the printed one.
const WEIGHTS = [7, 3, 1];

/** ICAO 9303 check digit of an MRZ field. */
export function checkDigit(field: string): string {
  let total = 0;
  [...field].forEach((c, i) => {
    const value = c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    total += value * WEIGHTS[i % 3]!;
  });
  return String(total % 10);
}

/** Where the names field and document number sit, per line count and length. */
function layout(lines: string[]) {
  if (lines.length === 3) return { namesLine: 2, namesStart: 0, docLine: 0, docStart: 5 };
  return { namesLine: 0, namesStart: 5, docLine: 1, docStart: 0 };
}

export function repairMrz(lines: string[]): string[] {
  const out = [...lines];
  const { namesLine, namesStart, docLine, docStart } = layout(lines);
  const names = out[namesLine]!;
  out[namesLine] = names.slice(0, namesStart) + clearAfterNames(names.slice(namesStart));
  const doc = out[docLine]!;
  const number = doc.slice(docStart, docStart + 9);
  const digit = doc.slice(docStart + 9, docStart + 10);
  const zeroed = number.replace(/O/g, '0');
  if (checkDigit(number) !== digit && zeroed !== number && checkDigit(zeroed) === digit) {
    out[docLine] = doc.slice(0, docStart) + zeroed + doc.slice(docStart + 9);
  }
  return out;
}

/** SURNAME<<GIVEN<NAMES then only filler: anything after the second '<<' is OCR noise. */
function clearAfterNames(field: string): string {
  const surnameEnd = field.indexOf('<<');
  if (surnameEnd < 0) return field;
  const givenEnd = field.indexOf('<<', surnameEnd + 2);
  if (givenEnd < 0) return field;
  return field.slice(0, givenEnd) + '<'.repeat(field.length - givenEnd);
}
