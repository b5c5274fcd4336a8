// mt940js (MIT) ships no types: the part of its API that statements/mt940.ts uses, from its README.
declare module 'mt940js' {
  export type Mt940Transaction = {
    date: Date;
    entryDate?: Date;
    amount: number;
    isReversal: boolean;
    currency: string;
    details: string;
    transactionType: string;
    reference: string;
    bankReference?: string;
    extraDetails?: string;
  };
  export type Mt940Statement = {
    transactionReference: string;
    accountIdentification: string;
    statementDate: Date;
    currency: string;
    openingBalance: number;
    closingBalance: number;
    transactions: Mt940Transaction[];
  };
  export class Parser {
    constructor(options?: { no86Structure?: boolean });
    parse(data: string, withTags?: boolean): Mt940Statement[];
  }
  const mt940: { Parser: typeof Parser };
  export default mt940;
}
