// The MRZ rules of libs/docread without OCR: check digits and whether a read MRZ holds together.
import { expect } from 'chai';
import { checkDigit, mrzDigitsHold, repairMrz } from '../src/index.ts';

// The ICAO 9303 TD3 specimen (a public test vector) and an obviously fake person's TD1 card.
const SPECIMEN = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];

describe('docread: MRZ rules', () => {
  it('computes ICAO check digits (7-3-1 weights, letters from 10, filler 0)', () => {
    expect(checkDigit('L898902C3')).to.equal('6');
    expect(checkDigit('740812')).to.equal('2');
    expect(checkDigit('<<<<')).to.equal('0');
  });

  it('an MRZ holds when every check digit does, and not when one is off or lines are junk', () => {
    expect(mrzDigitsHold(SPECIMEN)).to.equal(true);
    expect(
      mrzDigitsHold([SPECIMEN[0]!, SPECIMEN[1]!.replace('L898902C36', 'L898902C37')]),
    ).to.equal(false);
    expect(mrzDigitsHold([SPECIMEN[0]!, SPECIMEN[1]!.replace('7408122', '7408123')])).to.equal(
      false,
    );
    expect(mrzDigitsHold(['HELLO', 'WORLD'])).to.equal(false);
    expect(mrzDigitsHold([])).to.equal(false);
  });

  it('repair restores a zero misread as O in the document number, led by its check digit', () => {
    const misread = [SPECIMEN[0]!, SPECIMEN[1]!.replace('L898902C36', 'L8989O2C36')];
    expect(repairMrz(misread)).to.deep.equal(SPECIMEN);
  });
});
