// Generated driving licence barcodes (PDF417 with AAMVA text) of an obviously fake person.
import bwipjs from 'bwip-js/node';

export function aamva(over: Record<string, string> = {}): string {
  const fields: Record<string, string> = {
    DAQ: 'L00000001',
    DCS: 'MCTESTFACE',
    DAC: 'TESTY',
    DAD: 'Q',
    DBD: '08242020',
    DBB: '01311970',
    DBA: '01312035',
    DBC: '1',
    DAG: '1 TEST ST',
    DAI: 'ANYTOWN',
    DAJ: 'AZ',
    DAK: '850010000',
    DCF: '0000000001',
    DCG: 'USA',
    DDE: 'N',
    DDF: 'N',
    DDG: 'N',
    ...over,
  };
  const body = Object.entries(fields).map(([k, v]) => `${k}${v}`);
  return (
    ['@', '\x1e', 'ANSI 636026080102DL00410288ZA03290015DL' + body.join('\n')].join('\n') + '\r'
  );
}

/** The PDF417 of `text` as PNG bytes, `scale` pixels a module. */
export function pdf417Png(text: string, scale = 2): Promise<Buffer> {
  return bwipjs.toBuffer({ bcid: 'pdf417', text, scale, padding: 10, backgroundcolor: 'FFFFFF' });
}

/** The same, base64 (as a connector request carries it). */
export async function pdf417(text: string): Promise<string> {
  return (await pdf417Png(text)).toString('base64');
}
