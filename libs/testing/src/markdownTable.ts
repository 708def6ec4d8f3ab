// The rows of a Markdown table without the padding prettier adds, so a README table compares
// with the one a script generates whatever the column widths.
export const tableRows = (table: string): string[] =>
  table
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .split('|')
        .map((cell) => cell.trim())
        .join('|'),
    );
