// Hand-written files with a generated part: the lines between `# BEGIN GENERATED <name>` and
// `# END GENERATED <name>` are replaced, everything else is kept as written.
export function withGeneratedBlock(
  text: string,
  file: string,
  name: string,
  body: string[],
): string {
  const lines = text.split('\n');
  const begin = lines.findIndex((line) => line.includes(`BEGIN GENERATED ${name}`));
  const end = lines.findIndex((line) => line.includes(`END GENERATED ${name}`));
  if (begin < 0 || end < begin)
    throw new Error(
      `${file} lacks its "# BEGIN GENERATED ${name}" ... "# END GENERATED ${name}" lines`,
    );
  return [...lines.slice(0, begin + 1), ...body, ...lines.slice(end)].join('\n');
}
