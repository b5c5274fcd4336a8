import { describe, expect, it } from 'vitest';
import { parseStatement, StatementError } from './parse.ts';

// Bank statements read whole before anything is applied (DESIGN 13): the credit lines of CSV (a
// channel's columns), MT940 and camt.053; and every kind of bad file refused with its line and reason.

const T1 = 'C20261127101500123456001';
const T2 = 'C20261127111500123456002';

const csv = (...lines: string[]) =>
  Buffer.from(['Transaction ID,Date,Amount,Reference,Payer', ...lines].join('\n'), 'utf8');

const refusal = (run: () => unknown): { line: number | null; message: string } => {
  try {
    run();
  } catch (error) {
    if (error instanceof StatementError) return { line: error.line, message: error.message };
    throw error;
  }
  throw new Error('The statement was not refused.');
};

describe('CSV statements', () => {
  it('reads credit lines in the channel currency, leaving debits out', () => {
    const { credits, debits } = parseStatement(
      'csv',
      csv(
        `B1,2026-11-27,150000,Payment ${T1},NGUYEN VAN A`,
        `B2,2026-11-27,-5000,Bank fee,`,
        `B3,2026-11-27T09:00:00Z,"200000","${T2}",`,
      ),
      'VND',
    );
    expect(debits).toBe(1);
    expect(credits).toEqual([
      {
        line: 2,
        txnId: 'B1',
        reference: `Payment ${T1}`,
        amountMinor: 150000n,
        paidAt: new Date('2026-11-27T00:00:00Z'),
        dateOnly: true,
        payer: 'NGUYEN VAN A',
      },
      {
        line: 4,
        txnId: 'B3',
        reference: T2,
        amountMinor: 200000n,
        paidAt: new Date('2026-11-27T09:00:00Z'),
        dateOnly: false,
        payer: null,
      },
    ]);
  });

  it("uses a channel's own column names and a CR/DR column", () => {
    const file = Buffer.from(
      [
        'UTR,Value date,Amt,Narration,Type',
        `U1,2026-11-27,999.50,UPI/${T1},CR`,
        'U2,2026-11-27,10.00,charges,DR',
      ].join('\n'),
    );
    const { credits, debits } = parseStatement('csv', file, 'INR', {
      txn_id: 'UTR',
      date: 'Value date',
      amount: 'Amt',
      reference: 'Narration',
      direction: 'Type',
    });
    expect(credits.map((c) => [c.txnId, c.amountMinor])).toEqual([['U1', 99950n]]);
    expect(debits).toBe(1);
  });

  it.each([
    [
      'an unknown column',
      Buffer.from('Transaction ID,Date,Amount,Reference,Colour\nB1,2026-11-27,1,x,red'),
      1,
      /column "Colour"/,
    ],
    [
      'a missing column',
      Buffer.from('Transaction ID,Date,Reference\nB1,2026-11-27,x'),
      1,
      /"Amount" is missing/,
    ],
    ['an amount with a comma', csv('B1,2026-11-27,"1,500.00",x,'), 2, /not a decimal number/],
    ['too many decimals', csv('B1,2026-11-27,15.001,x,'), 2, /amount/],
    ['a date that is not one', csv('B1,27/11/2026,15.00,x,'), 2, /not a date/],
    [
      'the same transaction twice',
      csv('B1,2026-11-27,15.00,x,', 'B1,2026-11-27,15.00,x,'),
      3,
      /listed twice \(first on line 2\)/,
    ],
    ['a truncated last line', csv('B1,2026-11-27,15.00,x,', 'B2,2026-11-27'), 3, /well-formed CSV/],
    ['an empty transaction id', csv(',2026-11-27,15.00,x,'), 2, /transaction id is empty/],
  ])('refuses %s with its line', (_name, file, line, reason) => {
    const refused = refusal(() => parseStatement('csv', file, 'CNY'));
    expect(refused.line).toBe(line);
    expect(refused.message).toMatch(reason);
  });

  it('refuses a file in another encoding, naming the first line that is not UTF-8', () => {
    const latin1 = Buffer.concat([
      csv('B1,2026-11-27,15.00,ok,'),
      Buffer.from('\nB2,2026-11-27,15.00,S'),
      Buffer.from([0xe3, 0x6f]),
      Buffer.from(' Paulo,'),
    ]);
    const refused = refusal(() => parseStatement('csv', latin1, 'BRL'));
    expect(refused.line).toBe(3);
    expect(refused.message).toMatch(/not UTF-8/);
  });

  it('refuses an empty file', () => {
    expect(refusal(() => parseStatement('csv', Buffer.from(''), 'CNY')).message).toMatch(/empty/);
  });
});

const mt940 = (...transactions: string[]) =>
  Buffer.from(
    [
      ':20:STMT20261127',
      ':25:0071000888999',
      ':28C:1/1',
      ':60F:C261127VND0,',
      ...transactions,
      ':62F:C261127VND150000,',
    ].join('\n'),
  );

describe('MT940 statements', () => {
  it('reads the :61: lines with their :86: details and bank reference', () => {
    const { credits } = parseStatement(
      'mt940',
      mt940(
        ':61:2611271127C200000,NTRFNONREF//VCB2001',
        `:86:THANH TOAN ${T1}`,
        ':61:2611271127D50000,NCHGNONREF//VCB2002',
        ':86:PHI',
      ),
      'VND',
    );
    expect(credits).toEqual([
      expect.objectContaining({
        line: 5,
        txnId: 'VCB2001',
        amountMinor: 200000n,
        reference: expect.stringContaining(T1),
      }),
    ]);
  });

  it('refuses a truncated file and one in another currency', () => {
    const truncated = Buffer.from(
      [':20:STMT', ':25:ACC', ':28C:1/1', ':60F:C261127VND0,', ':61:2611271127C200000,NTRFNONREF//X'].join(
        '\n',
      ),
    );
    expect(refusal(() => parseStatement('mt940', truncated, 'VND')).message).toMatch(
      /cannot be read|no statement/,
    );
    expect(
      refusal(() => parseStatement('mt940', mt940(':61:2611271127C150000,NTRFNONREF//V1', ':86:x'), 'BRL'))
        .message,
    ).toMatch(/in VND/);
  });
});

const camt = (entries: string) =>
  Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-11-27T23:00:00Z</CreDtTm></GrpHdr>
    <Stmt>
      <Id>S1</Id>
${entries}
    </Stmt>
  </BkToCstmrStmt>
</Document>
`);
const entry = (
  ref: string,
  amount: string,
  direction: string,
  remittance: string,
  ccy = 'BRL',
) => `      <Ntry>
        <Amt Ccy="${ccy}">${amount}</Amt>
        <CdtDbtInd>${direction}</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><DtTm>2026-11-27T14:03:00-03:00</DtTm></BookgDt>
        <AcctSvcrRef>${ref}</AcctSvcrRef>
        <NtryDtls><TxDtls>
          <Refs><EndToEndId>E2E${ref}</EndToEndId></Refs>
          <RltdPties><Dbtr><Pty><Nm>Maria Silva</Nm></Pty></Dbtr></RltdPties>
          <RmtInf><Ustrd>${remittance}</Ustrd></RmtInf>
        </TxDtls></NtryDtls>
      </Ntry>`;

describe('camt.053 statements', () => {
  it('reads credit entries with their remittance text, payer and booking time', () => {
    const { credits, debits } = parseStatement(
      'camt053',
      camt(entry('BB1', '123.45', 'CRDT', T1) + entry('BB2', '5.00', 'DBIT', 'tarifa')),
      'BRL',
    );
    expect(debits).toBe(1);
    expect(credits).toEqual([
      {
        line: 7,
        txnId: 'BB1',
        reference: `${T1} E2EBB1`,
        amountMinor: 12345n,
        paidAt: new Date('2026-11-27T17:03:00Z'),
        dateOnly: false,
        payer: 'Maria Silva',
      },
    ]);
  });

  it('refuses truncated XML with its line, and an entry in another currency', () => {
    const whole = camt(entry('BB1', '123.45', 'CRDT', T1)).toString();
    const truncated = Buffer.from(whole.slice(0, whole.indexOf('</NtryDtls>')));
    expect(refusal(() => parseStatement('camt053', truncated, 'BRL')).message).toMatch(/not well-formed/);
    const usd = refusal(() =>
      parseStatement('camt053', camt(entry('BB1', '1.00', 'CRDT', T1, 'USD')), 'BRL'),
    );
    expect(usd).toMatchObject({ line: 7 });
    expect(usd.message).toMatch(/in USD/);
  });
});
