// Generated from /gateway/openapi.json by `npm run generate:types -w @paydesk/node-client`
// (openapi-typescript). Do not edit: change the server's route schemas, then generate again.
export interface paths {
  '/gateway/v1/balance': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The merchant's balance */
    get: operations['getBalance'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/v1/collections': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a collection by your out_trade_no */
    get: operations['getCollectionByOutTradeNo'];
    put?: never;
    /**
     * Create a collection (pay-in) order
     * @description Answers 201 with the order and its pay_url. A repeated out_trade_no answers 409 with the existing trade_no; no open channel answers 422 channel_unavailable.
     */
    post: operations['createCollection'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/v1/collections/{trade_no}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a collection by our trade_no */
    get: operations['getCollection'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/v1/payouts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a payout by your out_trade_no */
    get: operations['getPayoutByOutTradeNo'];
    put?: never;
    /**
     * Create a payout
     * @description Holds amount + fee at once (422 insufficient_funds when the available balance cannot cover it; nothing is written). Send an Idempotency-Key header to retry safely: the same key and body replay the first answer with Idempotent-Replayed: true; another body answers 422; while the first is still running, 409.
     */
    post: operations['createPayout'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/v1/payouts/{trade_no}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a payout by our trade_no */
    get: operations['getPayout'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/v1/collections/{trade_no}/refunds': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Refund a paid collection, fully or partly
     * @description Takes the amount from your available balance at once (422 insufficient_funds when it cannot; nothing is written) and answers 201 with the refund in processing; refund.succeeded or refund.failed follows. Several refunds of one order may not pass its amount (422 refund_exceeds_amount); an order that is not paid answers 409 invalid_state; a repeated out_refund_no answers 409 out_refund_no_taken with the existing refund_no. The order fee is not returned. Send an Idempotency-Key header to retry safely, as for payouts.
     */
    post: operations['createRefund'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/v1/refunds/{refund_no}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a refund by our refund_no */
    get: operations['getRefund'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/gateway/v1/refunds': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Get a refund by your out_refund_no */
    get: operations['getRefundByOutRefundNo'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  'collection.paid': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Callback collection.paid
     * @description The payer paid. Sent to the order's notify_url (else your default notify URL) as a Standard Webhooks call; answer 2xx within 15 s, otherwise it is retried with the same webhook-id.
     */
    post: operations['callback_collection_paid'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'collection.closed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Callback collection.closed
     * @description The collection expired unpaid. Sent to the order's notify_url (else your default notify URL) as a Standard Webhooks call; answer 2xx within 15 s, otherwise it is retried with the same webhook-id.
     */
    post: operations['callback_collection_closed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'collection.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Callback collection.failed
     * @description The payment failed. Sent to the order's notify_url (else your default notify URL) as a Standard Webhooks call; answer 2xx within 15 s, otherwise it is retried with the same webhook-id.
     */
    post: operations['callback_collection_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'payout.succeeded': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Callback payout.succeeded
     * @description The payout reached the payee. Sent to the order's notify_url (else your default notify URL) as a Standard Webhooks call; answer 2xx within 15 s, otherwise it is retried with the same webhook-id.
     */
    post: operations['callback_payout_succeeded'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'payout.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Callback payout.failed
     * @description The payout failed; failure_reason says why. Sent to the order's notify_url (else your default notify URL) as a Standard Webhooks call; answer 2xx within 15 s, otherwise it is retried with the same webhook-id.
     */
    post: operations['callback_payout_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'payout.refunded': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Callback payout.refunded
     * @description The bank returned a successful payout; the amount is back in your available balance. Sent to the order's notify_url (else your default notify URL) as a Standard Webhooks call; answer 2xx within 15 s, otherwise it is retried with the same webhook-id.
     */
    post: operations['callback_payout_refunded'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'refund.succeeded': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Callback refund.succeeded
     * @description The refund reached the payer. Sent to the order's notify_url (else your default notify URL) as a Standard Webhooks call; answer 2xx within 15 s, otherwise it is retried with the same webhook-id.
     */
    post: operations['callback_refund_succeeded'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  'refund.failed': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Callback refund.failed
     * @description The refund failed; failure_reason says why, and the amount is back in your available balance. Sent to the order's notify_url (else your default notify URL) as a Standard Webhooks call; answer 2xx within 15 s, otherwise it is retried with the same webhook-id.
     */
    post: operations['callback_refund_failed'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    CreateCollectionInput: {
      out_trade_no: string;
      amount: string;
      channel?: string;
      notify_url?: string;
      return_url?: string;
      payer_name?: string;
      note?: string;
      payer_ip?: string;
    };
    CreatePayoutInput: {
      /** @enum {string} */
      account_type: 'individual' | 'company';
      bank_code?: string;
      bank_name?: string;
      branch_name?: string;
      ifsc?: string;
      cpf_cnpj?: string;
      payee_name: string;
      account_no: string;
      out_trade_no: string;
      amount: string;
      channel?: string;
      notify_url?: string;
      note?: string;
    };
    CreateRefundInput: {
      out_refund_no: string;
      amount: string;
      reason?: string;
    };
    /** @description A collection (pay-in) order, as answered and as collection.* callbacks carry it. */
    Collection: {
      trade_no: string;
      out_trade_no: string;
      /** @enum {string} */
      status: 'to_be_paid' | 'paid' | 'closed' | 'failed';
      amount: string;
      fee: string;
      /** @enum {string} */
      currency: 'CNY' | 'INR' | 'BRL' | 'VND' | 'USD' | 'USDT';
      channel: string;
      pay_url: string;
      expires_at: string;
      created_at: string;
      paid_at: string | null;
      /** @enum {string} */
      settlement_status: 'unsettled' | 'pending_settlement' | 'settled';
      livemode: boolean;
    };
    /** @description A payout, as answered and as payout.* callbacks carry it. account_no is masked. */
    Payout: {
      trade_no: string;
      out_trade_no: string;
      /** @enum {string} */
      status:
        | 'pending_approval'
        | 'pending'
        | 'processing'
        | 'success'
        | 'failed'
        | 'cancelled'
        | 'rejected'
        | 'refund_received';
      amount: string;
      fee: string;
      /** @enum {string} */
      currency: 'CNY' | 'INR' | 'BRL' | 'VND' | 'USD' | 'USDT';
      channel: string;
      payee_name: string;
      account_no: string;
      created_at: string;
      finished_at: string | null;
      failure_reason: string | null;
      livemode: boolean;
    };
    /** @description A refund of a paid collection, as answered and as refund.* callbacks carry it. */
    Refund: {
      refund_no: string;
      out_refund_no: string;
      trade_no: string;
      /** @enum {string} */
      status: 'processing' | 'succeeded' | 'failed';
      amount: string;
      /** @enum {string} */
      currency: 'CNY' | 'INR' | 'BRL' | 'VND' | 'USD' | 'USDT';
      reason: string | null;
      created_at: string;
      finished_at: string | null;
      failure_reason: string | null;
      livemode: boolean;
    };
    /** @description Your balance in the mode of the key: total = available + locked. */
    Balance: {
      total: string;
      available: string;
      locked: string;
      /** @enum {string} */
      currency: 'CNY' | 'INR' | 'BRL' | 'VND' | 'USD' | 'USDT';
    };
    /** @description Every refusal: {message, code, request_id} and, by code, the fields that say more. */
    Error: {
      message: string;
      code: string;
      request_id: string;
      errors?: {
        [key: string]: string[];
      };
      trade_no?: string;
      refund_no?: string;
      limit?: string;
      list?: string;
    } & {
      [key: string]: unknown;
    };
    /** @description Callback collection.paid: The payer paid. */
    CollectionPaidEvent: {
      id: string;
      /** @constant */
      type: 'collection.paid';
      created_at: string;
      data: components['schemas']['Collection'];
    };
    /** @description Callback collection.closed: The collection expired unpaid. */
    CollectionClosedEvent: {
      id: string;
      /** @constant */
      type: 'collection.closed';
      created_at: string;
      data: components['schemas']['Collection'];
    };
    /** @description Callback collection.failed: The payment failed. */
    CollectionFailedEvent: {
      id: string;
      /** @constant */
      type: 'collection.failed';
      created_at: string;
      data: components['schemas']['Collection'];
    };
    /** @description Callback payout.succeeded: The payout reached the payee. */
    PayoutSucceededEvent: {
      id: string;
      /** @constant */
      type: 'payout.succeeded';
      created_at: string;
      data: components['schemas']['Payout'];
    };
    /** @description Callback payout.failed: The payout failed; failure_reason says why. */
    PayoutFailedEvent: {
      id: string;
      /** @constant */
      type: 'payout.failed';
      created_at: string;
      data: components['schemas']['Payout'];
    };
    /** @description Callback payout.refunded: The bank returned a successful payout; the amount is back in your available balance. */
    PayoutRefundedEvent: {
      id: string;
      /** @constant */
      type: 'payout.refunded';
      created_at: string;
      data: components['schemas']['Payout'];
    };
    /** @description Callback refund.succeeded: The refund reached the payer. */
    RefundSucceededEvent: {
      id: string;
      /** @constant */
      type: 'refund.succeeded';
      created_at: string;
      data: components['schemas']['Refund'];
    };
    /** @description Callback refund.failed: The refund failed; failure_reason says why, and the amount is back in your available balance. */
    RefundFailedEvent: {
      id: string;
      /** @constant */
      type: 'refund.failed';
      created_at: string;
      data: components['schemas']['Refund'];
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getBalance: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Found. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "total": "9902.00",
           *         "available": "9400.00",
           *         "locked": "502.00",
           *         "currency": "CNY"
           *       }
           *     }
           */
          'application/json': {
            data: components['schemas']['Balance'];
          };
        };
      };
      /** @description The signature was refused: see `code`. Nothing was done. Codes: `signature_header_invalid`, `signature_invalid`, `timestamp_out_of_window`, `nonce_reused`, `unknown_key`. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'signature_header_invalid'
              | 'signature_invalid'
              | 'timestamp_out_of_window'
              | 'nonce_reused'
              | 'unknown_key';
          };
        };
      };
      /** @description The call is signed but not allowed. Codes: `ip_not_allowed`, `merchant_disabled`. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'ip_not_allowed' | 'merchant_disabled';
          };
        };
      };
      /** @description The body is not JSON (Content-Type: application/json). Nothing was checked or spent. Codes: `unsupported_media_type`. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Too many calls: wait the seconds of Retry-After. Codes: `throttled`. */
      429: {
        headers: {
          /** @description Seconds to wait before calling again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'throttled';
          };
        };
      };
      /** @description Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no). Codes: `service_unavailable`. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  getCollectionByOutTradeNo: {
    parameters: {
      query: {
        out_trade_no: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Found. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "trade_no": "C2026010100000001",
           *         "out_trade_no": "ORDER-1001",
           *         "status": "to_be_paid",
           *         "amount": "100.00",
           *         "fee": "0.60",
           *         "currency": "CNY",
           *         "channel": "sandbox-cny",
           *         "pay_url": "https://pay.example.com/sandbox/pay/C2026010100000001",
           *         "expires_at": "2026-01-01T00:30:00.000Z",
           *         "created_at": "2026-01-01T00:00:00.000Z",
           *         "paid_at": null,
           *         "settlement_status": "unsettled",
           *         "livemode": false
           *       }
           *     }
           */
          'application/json': {
            data: components['schemas']['Collection'];
          };
        };
      };
      /** @description The signature was refused: see `code`. Nothing was done. Codes: `signature_header_invalid`, `signature_invalid`, `timestamp_out_of_window`, `nonce_reused`, `unknown_key`. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'signature_header_invalid'
              | 'signature_invalid'
              | 'timestamp_out_of_window'
              | 'nonce_reused'
              | 'unknown_key';
          };
        };
      };
      /** @description The call is signed but not allowed. Codes: `ip_not_allowed`, `merchant_disabled`. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'ip_not_allowed' | 'merchant_disabled';
          };
        };
      };
      /** @description Not found among your objects in the mode of your key (another merchant’s or mode’s answers 404 too). Codes: `not_found`. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'not_found';
          };
        };
      };
      /** @description The body is not JSON (Content-Type: application/json). Nothing was checked or spent. Codes: `unsupported_media_type`. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Refused: see `code`. Nothing was written. Codes: `validation_failed`. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'validation_failed';
          };
        };
      };
      /** @description Too many calls: wait the seconds of Retry-After. Codes: `throttled`. */
      429: {
        headers: {
          /** @description Seconds to wait before calling again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'throttled';
          };
        };
      };
      /** @description Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no). Codes: `service_unavailable`. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  createCollection: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateCollectionInput'];
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "trade_no": "C2026010100000001",
           *         "out_trade_no": "ORDER-1001",
           *         "status": "to_be_paid",
           *         "amount": "100.00",
           *         "fee": "0.60",
           *         "currency": "CNY",
           *         "channel": "sandbox-cny",
           *         "pay_url": "https://pay.example.com/sandbox/pay/C2026010100000001",
           *         "expires_at": "2026-01-01T00:30:00.000Z",
           *         "created_at": "2026-01-01T00:00:00.000Z",
           *         "paid_at": null,
           *         "settlement_status": "unsettled",
           *         "livemode": false
           *       }
           *     }
           */
          'application/json': {
            data: components['schemas']['Collection'];
          };
        };
      };
      /** @description The body is not valid JSON, or a value cannot be stored. Codes: `bad_request`. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'bad_request';
          };
        };
      };
      /** @description The signature was refused: see `code`. Nothing was done. Codes: `signature_header_invalid`, `signature_invalid`, `timestamp_out_of_window`, `nonce_reused`, `unknown_key`. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'signature_header_invalid'
              | 'signature_invalid'
              | 'timestamp_out_of_window'
              | 'nonce_reused'
              | 'unknown_key';
          };
        };
      };
      /** @description The call is signed but not allowed. Codes: `ip_not_allowed`, `merchant_disabled`. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'ip_not_allowed' | 'merchant_disabled';
          };
        };
      };
      /** @description A conflict with an earlier call: see `code`. Codes: `out_trade_no_taken`. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'out_trade_no_taken';
          };
        };
      };
      /** @description The body is not JSON (Content-Type: application/json). Nothing was checked or spent. Codes: `unsupported_media_type`. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Refused: see `code`. Nothing was written. Codes: `validation_failed`, `amount_out_of_range`, `channel_unavailable`, `limit_exceeded`, `blocked`. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'validation_failed'
              | 'amount_out_of_range'
              | 'channel_unavailable'
              | 'limit_exceeded'
              | 'blocked';
          };
        };
      };
      /** @description Too many calls: wait the seconds of Retry-After. Codes: `throttled`. */
      429: {
        headers: {
          /** @description Seconds to wait before calling again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'throttled';
          };
        };
      };
      /** @description Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no). Codes: `service_unavailable`. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  getCollection: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        trade_no: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Found. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "trade_no": "C2026010100000001",
           *         "out_trade_no": "ORDER-1001",
           *         "status": "to_be_paid",
           *         "amount": "100.00",
           *         "fee": "0.60",
           *         "currency": "CNY",
           *         "channel": "sandbox-cny",
           *         "pay_url": "https://pay.example.com/sandbox/pay/C2026010100000001",
           *         "expires_at": "2026-01-01T00:30:00.000Z",
           *         "created_at": "2026-01-01T00:00:00.000Z",
           *         "paid_at": null,
           *         "settlement_status": "unsettled",
           *         "livemode": false
           *       }
           *     }
           */
          'application/json': {
            data: components['schemas']['Collection'];
          };
        };
      };
      /** @description The signature was refused: see `code`. Nothing was done. Codes: `signature_header_invalid`, `signature_invalid`, `timestamp_out_of_window`, `nonce_reused`, `unknown_key`. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'signature_header_invalid'
              | 'signature_invalid'
              | 'timestamp_out_of_window'
              | 'nonce_reused'
              | 'unknown_key';
          };
        };
      };
      /** @description The call is signed but not allowed. Codes: `ip_not_allowed`, `merchant_disabled`. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'ip_not_allowed' | 'merchant_disabled';
          };
        };
      };
      /** @description Not found among your objects in the mode of your key (another merchant’s or mode’s answers 404 too). Codes: `not_found`. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'not_found';
          };
        };
      };
      /** @description The body is not JSON (Content-Type: application/json). Nothing was checked or spent. Codes: `unsupported_media_type`. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Too many calls: wait the seconds of Retry-After. Codes: `throttled`. */
      429: {
        headers: {
          /** @description Seconds to wait before calling again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'throttled';
          };
        };
      };
      /** @description Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no). Codes: `service_unavailable`. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  getPayoutByOutTradeNo: {
    parameters: {
      query: {
        out_trade_no: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Found. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "trade_no": "P2026010100000001",
           *         "out_trade_no": "PAYOUT-1001",
           *         "status": "pending",
           *         "amount": "500.00",
           *         "fee": "2.00",
           *         "currency": "CNY",
           *         "channel": "sandbox-pay",
           *         "payee_name": "Zhang San",
           *         "account_no": "************1234",
           *         "created_at": "2026-01-01T00:00:00.000Z",
           *         "finished_at": null,
           *         "failure_reason": null,
           *         "livemode": false
           *       }
           *     }
           */
          'application/json': {
            data: components['schemas']['Payout'];
          };
        };
      };
      /** @description The signature was refused: see `code`. Nothing was done. Codes: `signature_header_invalid`, `signature_invalid`, `timestamp_out_of_window`, `nonce_reused`, `unknown_key`. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'signature_header_invalid'
              | 'signature_invalid'
              | 'timestamp_out_of_window'
              | 'nonce_reused'
              | 'unknown_key';
          };
        };
      };
      /** @description The call is signed but not allowed. Codes: `ip_not_allowed`, `merchant_disabled`. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'ip_not_allowed' | 'merchant_disabled';
          };
        };
      };
      /** @description Not found among your objects in the mode of your key (another merchant’s or mode’s answers 404 too). Codes: `not_found`. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'not_found';
          };
        };
      };
      /** @description The body is not JSON (Content-Type: application/json). Nothing was checked or spent. Codes: `unsupported_media_type`. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Refused: see `code`. Nothing was written. Codes: `validation_failed`. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'validation_failed';
          };
        };
      };
      /** @description Too many calls: wait the seconds of Retry-After. Codes: `throttled`. */
      429: {
        headers: {
          /** @description Seconds to wait before calling again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'throttled';
          };
        };
      };
      /** @description Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no). Codes: `service_unavailable`. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  createPayout: {
    parameters: {
      query?: never;
      header?: {
        /** @description Retry safely: the same key with the same body replays the first answer (with `Idempotent-Replayed: true`); with another body answers 422 `idempotency_key_reused`; while the first call is still running, 409 `idempotency_key_in_flight`. Keys live 24 h per merchant. */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreatePayoutInput'];
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          /** @description `true` when this is the stored first answer of the same Idempotency-Key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "trade_no": "P2026010100000001",
           *         "out_trade_no": "PAYOUT-1001",
           *         "status": "pending",
           *         "amount": "500.00",
           *         "fee": "2.00",
           *         "currency": "CNY",
           *         "channel": "sandbox-pay",
           *         "payee_name": "Zhang San",
           *         "account_no": "************1234",
           *         "created_at": "2026-01-01T00:00:00.000Z",
           *         "finished_at": null,
           *         "failure_reason": null,
           *         "livemode": false
           *       }
           *     }
           */
          'application/json': {
            data: components['schemas']['Payout'];
          };
        };
      };
      /** @description The body is not valid JSON, or a value cannot be stored. Codes: `bad_request`. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'bad_request';
          };
        };
      };
      /** @description The signature was refused: see `code`. Nothing was done. Codes: `signature_header_invalid`, `signature_invalid`, `timestamp_out_of_window`, `nonce_reused`, `unknown_key`. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'signature_header_invalid'
              | 'signature_invalid'
              | 'timestamp_out_of_window'
              | 'nonce_reused'
              | 'unknown_key';
          };
        };
      };
      /** @description The call is signed but not allowed. Codes: `ip_not_allowed`, `merchant_disabled`. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'ip_not_allowed' | 'merchant_disabled';
          };
        };
      };
      /** @description A conflict with an earlier call: see `code`. Codes: `out_trade_no_taken`, `idempotency_key_in_flight`. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'out_trade_no_taken' | 'idempotency_key_in_flight';
          };
        };
      };
      /** @description The body is not JSON (Content-Type: application/json). Nothing was checked or spent. Codes: `unsupported_media_type`. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Refused: see `code`. Nothing was written. Codes: `validation_failed`, `amount_out_of_range`, `channel_unavailable`, `insufficient_funds`, `limit_exceeded`, `blocked`, `idempotency_key_reused`. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'validation_failed'
              | 'amount_out_of_range'
              | 'channel_unavailable'
              | 'insufficient_funds'
              | 'limit_exceeded'
              | 'blocked'
              | 'idempotency_key_reused';
          };
        };
      };
      /** @description Too many calls: wait the seconds of Retry-After. Codes: `throttled`. */
      429: {
        headers: {
          /** @description Seconds to wait before calling again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'throttled';
          };
        };
      };
      /** @description Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no). Codes: `service_unavailable`. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  getPayout: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        trade_no: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Found. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "trade_no": "P2026010100000001",
           *         "out_trade_no": "PAYOUT-1001",
           *         "status": "pending",
           *         "amount": "500.00",
           *         "fee": "2.00",
           *         "currency": "CNY",
           *         "channel": "sandbox-pay",
           *         "payee_name": "Zhang San",
           *         "account_no": "************1234",
           *         "created_at": "2026-01-01T00:00:00.000Z",
           *         "finished_at": null,
           *         "failure_reason": null,
           *         "livemode": false
           *       }
           *     }
           */
          'application/json': {
            data: components['schemas']['Payout'];
          };
        };
      };
      /** @description The signature was refused: see `code`. Nothing was done. Codes: `signature_header_invalid`, `signature_invalid`, `timestamp_out_of_window`, `nonce_reused`, `unknown_key`. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'signature_header_invalid'
              | 'signature_invalid'
              | 'timestamp_out_of_window'
              | 'nonce_reused'
              | 'unknown_key';
          };
        };
      };
      /** @description The call is signed but not allowed. Codes: `ip_not_allowed`, `merchant_disabled`. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'ip_not_allowed' | 'merchant_disabled';
          };
        };
      };
      /** @description Not found among your objects in the mode of your key (another merchant’s or mode’s answers 404 too). Codes: `not_found`. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'not_found';
          };
        };
      };
      /** @description The body is not JSON (Content-Type: application/json). Nothing was checked or spent. Codes: `unsupported_media_type`. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Too many calls: wait the seconds of Retry-After. Codes: `throttled`. */
      429: {
        headers: {
          /** @description Seconds to wait before calling again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'throttled';
          };
        };
      };
      /** @description Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no). Codes: `service_unavailable`. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  createRefund: {
    parameters: {
      query?: never;
      header?: {
        /** @description Retry safely: the same key with the same body replays the first answer (with `Idempotent-Replayed: true`); with another body answers 422 `idempotency_key_reused`; while the first call is still running, 409 `idempotency_key_in_flight`. Keys live 24 h per merchant. */
        'Idempotency-Key'?: string;
      };
      path: {
        trade_no: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['CreateRefundInput'];
      };
    };
    responses: {
      /** @description Created. */
      201: {
        headers: {
          /** @description `true` when this is the stored first answer of the same Idempotency-Key. */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "refund_no": "R2026010100100000123456",
           *         "out_refund_no": "REFUND-1001",
           *         "trade_no": "C2026010100000001",
           *         "status": "processing",
           *         "amount": "30.00",
           *         "currency": "CNY",
           *         "reason": "One item out of stock",
           *         "created_at": "2026-01-01T01:00:00.000Z",
           *         "finished_at": null,
           *         "failure_reason": null,
           *         "livemode": false
           *       }
           *     }
           */
          'application/json': {
            data: components['schemas']['Refund'];
          };
        };
      };
      /** @description The body is not valid JSON, or a value cannot be stored. Codes: `bad_request`. */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'bad_request';
          };
        };
      };
      /** @description The signature was refused: see `code`. Nothing was done. Codes: `signature_header_invalid`, `signature_invalid`, `timestamp_out_of_window`, `nonce_reused`, `unknown_key`. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'signature_header_invalid'
              | 'signature_invalid'
              | 'timestamp_out_of_window'
              | 'nonce_reused'
              | 'unknown_key';
          };
        };
      };
      /** @description The call is signed but not allowed. Codes: `ip_not_allowed`, `merchant_disabled`. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'ip_not_allowed' | 'merchant_disabled';
          };
        };
      };
      /** @description Not found among your objects in the mode of your key (another merchant’s or mode’s answers 404 too). Codes: `not_found`. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'not_found';
          };
        };
      };
      /** @description A conflict with an earlier call: see `code`. Codes: `invalid_state`, `out_refund_no_taken`, `idempotency_key_in_flight`. */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'invalid_state' | 'out_refund_no_taken' | 'idempotency_key_in_flight';
          };
        };
      };
      /** @description The body is not JSON (Content-Type: application/json). Nothing was checked or spent. Codes: `unsupported_media_type`. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Refused: see `code`. Nothing was written. Codes: `validation_failed`, `refund_exceeds_amount`, `insufficient_funds`, `channel_unavailable`, `idempotency_key_reused`. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'validation_failed'
              | 'refund_exceeds_amount'
              | 'insufficient_funds'
              | 'channel_unavailable'
              | 'idempotency_key_reused';
          };
        };
      };
      /** @description Too many calls: wait the seconds of Retry-After. Codes: `throttled`. */
      429: {
        headers: {
          /** @description Seconds to wait before calling again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'throttled';
          };
        };
      };
      /** @description Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no). Codes: `service_unavailable`. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  getRefund: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        refund_no: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Found. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "refund_no": "R2026010100100000123456",
           *         "out_refund_no": "REFUND-1001",
           *         "trade_no": "C2026010100000001",
           *         "status": "processing",
           *         "amount": "30.00",
           *         "currency": "CNY",
           *         "reason": "One item out of stock",
           *         "created_at": "2026-01-01T01:00:00.000Z",
           *         "finished_at": null,
           *         "failure_reason": null,
           *         "livemode": false
           *       }
           *     }
           */
          'application/json': {
            data: components['schemas']['Refund'];
          };
        };
      };
      /** @description The signature was refused: see `code`. Nothing was done. Codes: `signature_header_invalid`, `signature_invalid`, `timestamp_out_of_window`, `nonce_reused`, `unknown_key`. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'signature_header_invalid'
              | 'signature_invalid'
              | 'timestamp_out_of_window'
              | 'nonce_reused'
              | 'unknown_key';
          };
        };
      };
      /** @description The call is signed but not allowed. Codes: `ip_not_allowed`, `merchant_disabled`. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'ip_not_allowed' | 'merchant_disabled';
          };
        };
      };
      /** @description Not found among your objects in the mode of your key (another merchant’s or mode’s answers 404 too). Codes: `not_found`. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'not_found';
          };
        };
      };
      /** @description The body is not JSON (Content-Type: application/json). Nothing was checked or spent. Codes: `unsupported_media_type`. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Too many calls: wait the seconds of Retry-After. Codes: `throttled`. */
      429: {
        headers: {
          /** @description Seconds to wait before calling again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'throttled';
          };
        };
      };
      /** @description Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no). Codes: `service_unavailable`. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  getRefundByOutRefundNo: {
    parameters: {
      query: {
        out_refund_no: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Found. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "refund_no": "R2026010100100000123456",
           *         "out_refund_no": "REFUND-1001",
           *         "trade_no": "C2026010100000001",
           *         "status": "processing",
           *         "amount": "30.00",
           *         "currency": "CNY",
           *         "reason": "One item out of stock",
           *         "created_at": "2026-01-01T01:00:00.000Z",
           *         "finished_at": null,
           *         "failure_reason": null,
           *         "livemode": false
           *       }
           *     }
           */
          'application/json': {
            data: components['schemas']['Refund'];
          };
        };
      };
      /** @description The signature was refused: see `code`. Nothing was done. Codes: `signature_header_invalid`, `signature_invalid`, `timestamp_out_of_window`, `nonce_reused`, `unknown_key`. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?:
              | 'signature_header_invalid'
              | 'signature_invalid'
              | 'timestamp_out_of_window'
              | 'nonce_reused'
              | 'unknown_key';
          };
        };
      };
      /** @description The call is signed but not allowed. Codes: `ip_not_allowed`, `merchant_disabled`. */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'ip_not_allowed' | 'merchant_disabled';
          };
        };
      };
      /** @description Not found among your objects in the mode of your key (another merchant’s or mode’s answers 404 too). Codes: `not_found`. */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'not_found';
          };
        };
      };
      /** @description The body is not JSON (Content-Type: application/json). Nothing was checked or spent. Codes: `unsupported_media_type`. */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'unsupported_media_type';
          };
        };
      };
      /** @description Refused: see `code`. Nothing was written. Codes: `validation_failed`. */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'validation_failed';
          };
        };
      };
      /** @description Too many calls: wait the seconds of Retry-After. Codes: `throttled`. */
      429: {
        headers: {
          /** @description Seconds to wait before calling again. */
          'Retry-After'?: number;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'throttled';
          };
        };
      };
      /** @description Busy for a moment: retry with a new nonce (and the same Idempotency-Key or out_trade_no). Codes: `service_unavailable`. */
      503: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @enum {string} */
            code?: 'service_unavailable';
          };
        };
      };
    };
  };
  callback_collection_paid: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (the body’s `id`): the same on every retry. Deduplicate on it. */
        'webhook-id': string;
        /** @description Unix seconds of this attempt. Refuse values more than 5 minutes from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `webhook-id + "." + webhook-timestamp + "." + raw body`, keyed with the base64-decoded part of your webhook secret after `whsec_` (Standard Webhooks). Several space-separated values may come: accept if one matches. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0001",
         *       "type": "collection.paid",
         *       "created_at": "2026-01-01T00:05:00.000Z",
         *       "data": {
         *         "trade_no": "C2026010100000001",
         *         "out_trade_no": "ORDER-1001",
         *         "status": "paid",
         *         "amount": "100.00",
         *         "fee": "0.60",
         *         "currency": "CNY",
         *         "channel": "sandbox-cny",
         *         "pay_url": "https://pay.example.com/sandbox/pay/C2026010100000001",
         *         "expires_at": "2026-01-01T00:30:00.000Z",
         *         "created_at": "2026-01-01T00:00:00.000Z",
         *         "paid_at": "2026-01-01T00:05:00.000Z",
         *         "settlement_status": "unsettled",
         *         "livemode": false
         *       }
         *     }
         */
        'application/json': components['schemas']['CollectionPaidEvent'];
      };
    };
    responses: {
      /** @description Received: the delivery ends. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Anything else, a timeout or no answer: retried with backoff. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  callback_collection_closed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (the body’s `id`): the same on every retry. Deduplicate on it. */
        'webhook-id': string;
        /** @description Unix seconds of this attempt. Refuse values more than 5 minutes from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `webhook-id + "." + webhook-timestamp + "." + raw body`, keyed with the base64-decoded part of your webhook secret after `whsec_` (Standard Webhooks). Several space-separated values may come: accept if one matches. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0001",
         *       "type": "collection.closed",
         *       "created_at": "2026-01-01T00:05:00.000Z",
         *       "data": {
         *         "trade_no": "C2026010100000001",
         *         "out_trade_no": "ORDER-1001",
         *         "status": "closed",
         *         "amount": "100.00",
         *         "fee": "0.60",
         *         "currency": "CNY",
         *         "channel": "sandbox-cny",
         *         "pay_url": "https://pay.example.com/sandbox/pay/C2026010100000001",
         *         "expires_at": "2026-01-01T00:30:00.000Z",
         *         "created_at": "2026-01-01T00:00:00.000Z",
         *         "paid_at": null,
         *         "settlement_status": "unsettled",
         *         "livemode": false
         *       }
         *     }
         */
        'application/json': components['schemas']['CollectionClosedEvent'];
      };
    };
    responses: {
      /** @description Received: the delivery ends. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Anything else, a timeout or no answer: retried with backoff. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  callback_collection_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (the body’s `id`): the same on every retry. Deduplicate on it. */
        'webhook-id': string;
        /** @description Unix seconds of this attempt. Refuse values more than 5 minutes from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `webhook-id + "." + webhook-timestamp + "." + raw body`, keyed with the base64-decoded part of your webhook secret after `whsec_` (Standard Webhooks). Several space-separated values may come: accept if one matches. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0001",
         *       "type": "collection.failed",
         *       "created_at": "2026-01-01T00:05:00.000Z",
         *       "data": {
         *         "trade_no": "C2026010100000001",
         *         "out_trade_no": "ORDER-1001",
         *         "status": "failed",
         *         "amount": "100.00",
         *         "fee": "0.60",
         *         "currency": "CNY",
         *         "channel": "sandbox-cny",
         *         "pay_url": "https://pay.example.com/sandbox/pay/C2026010100000001",
         *         "expires_at": "2026-01-01T00:30:00.000Z",
         *         "created_at": "2026-01-01T00:00:00.000Z",
         *         "paid_at": null,
         *         "settlement_status": "unsettled",
         *         "livemode": false
         *       }
         *     }
         */
        'application/json': components['schemas']['CollectionFailedEvent'];
      };
    };
    responses: {
      /** @description Received: the delivery ends. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Anything else, a timeout or no answer: retried with backoff. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  callback_payout_succeeded: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (the body’s `id`): the same on every retry. Deduplicate on it. */
        'webhook-id': string;
        /** @description Unix seconds of this attempt. Refuse values more than 5 minutes from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `webhook-id + "." + webhook-timestamp + "." + raw body`, keyed with the base64-decoded part of your webhook secret after `whsec_` (Standard Webhooks). Several space-separated values may come: accept if one matches. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0001",
         *       "type": "payout.succeeded",
         *       "created_at": "2026-01-01T00:05:00.000Z",
         *       "data": {
         *         "trade_no": "P2026010100000001",
         *         "out_trade_no": "PAYOUT-1001",
         *         "status": "success",
         *         "amount": "500.00",
         *         "fee": "2.00",
         *         "currency": "CNY",
         *         "channel": "sandbox-pay",
         *         "payee_name": "Zhang San",
         *         "account_no": "************1234",
         *         "created_at": "2026-01-01T00:00:00.000Z",
         *         "finished_at": "2026-01-01T00:05:00.000Z",
         *         "failure_reason": null,
         *         "livemode": false
         *       }
         *     }
         */
        'application/json': components['schemas']['PayoutSucceededEvent'];
      };
    };
    responses: {
      /** @description Received: the delivery ends. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Anything else, a timeout or no answer: retried with backoff. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  callback_payout_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (the body’s `id`): the same on every retry. Deduplicate on it. */
        'webhook-id': string;
        /** @description Unix seconds of this attempt. Refuse values more than 5 minutes from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `webhook-id + "." + webhook-timestamp + "." + raw body`, keyed with the base64-decoded part of your webhook secret after `whsec_` (Standard Webhooks). Several space-separated values may come: accept if one matches. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0001",
         *       "type": "payout.failed",
         *       "created_at": "2026-01-01T00:05:00.000Z",
         *       "data": {
         *         "trade_no": "P2026010100000001",
         *         "out_trade_no": "PAYOUT-1001",
         *         "status": "failed",
         *         "amount": "500.00",
         *         "fee": "2.00",
         *         "currency": "CNY",
         *         "channel": "sandbox-pay",
         *         "payee_name": "Zhang San",
         *         "account_no": "************0000",
         *         "created_at": "2026-01-01T00:00:00.000Z",
         *         "finished_at": "2026-01-01T00:05:00.000Z",
         *         "failure_reason": "Sandbox: the receiving account does not exist (it ends in 0000).",
         *         "livemode": false
         *       }
         *     }
         */
        'application/json': components['schemas']['PayoutFailedEvent'];
      };
    };
    responses: {
      /** @description Received: the delivery ends. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Anything else, a timeout or no answer: retried with backoff. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  callback_payout_refunded: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (the body’s `id`): the same on every retry. Deduplicate on it. */
        'webhook-id': string;
        /** @description Unix seconds of this attempt. Refuse values more than 5 minutes from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `webhook-id + "." + webhook-timestamp + "." + raw body`, keyed with the base64-decoded part of your webhook secret after `whsec_` (Standard Webhooks). Several space-separated values may come: accept if one matches. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0001",
         *       "type": "payout.refunded",
         *       "created_at": "2026-01-01T00:05:00.000Z",
         *       "data": {
         *         "trade_no": "P2026010100000001",
         *         "out_trade_no": "PAYOUT-1001",
         *         "status": "refund_received",
         *         "amount": "500.00",
         *         "fee": "2.00",
         *         "currency": "CNY",
         *         "channel": "sandbox-pay",
         *         "payee_name": "Zhang San",
         *         "account_no": "************1234",
         *         "created_at": "2026-01-01T00:00:00.000Z",
         *         "finished_at": "2026-01-01T00:05:00.000Z",
         *         "failure_reason": "Returned by the bank",
         *         "livemode": false
         *       }
         *     }
         */
        'application/json': components['schemas']['PayoutRefundedEvent'];
      };
    };
    responses: {
      /** @description Received: the delivery ends. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Anything else, a timeout or no answer: retried with backoff. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  callback_refund_succeeded: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (the body’s `id`): the same on every retry. Deduplicate on it. */
        'webhook-id': string;
        /** @description Unix seconds of this attempt. Refuse values more than 5 minutes from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `webhook-id + "." + webhook-timestamp + "." + raw body`, keyed with the base64-decoded part of your webhook secret after `whsec_` (Standard Webhooks). Several space-separated values may come: accept if one matches. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0001",
         *       "type": "refund.succeeded",
         *       "created_at": "2026-01-01T00:05:00.000Z",
         *       "data": {
         *         "refund_no": "R2026010100100000123456",
         *         "out_refund_no": "REFUND-1001",
         *         "trade_no": "C2026010100000001",
         *         "status": "succeeded",
         *         "amount": "30.00",
         *         "currency": "CNY",
         *         "reason": "One item out of stock",
         *         "created_at": "2026-01-01T01:00:00.000Z",
         *         "finished_at": "2026-01-01T00:05:00.000Z",
         *         "failure_reason": null,
         *         "livemode": false
         *       }
         *     }
         */
        'application/json': components['schemas']['RefundSucceededEvent'];
      };
    };
    responses: {
      /** @description Received: the delivery ends. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Anything else, a timeout or no answer: retried with backoff. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  callback_refund_failed: {
    parameters: {
      query?: never;
      header: {
        /** @description The event id (the body’s `id`): the same on every retry. Deduplicate on it. */
        'webhook-id': string;
        /** @description Unix seconds of this attempt. Refuse values more than 5 minutes from your clock. */
        'webhook-timestamp': string;
        /** @description `v1,` + base64 HMAC-SHA256 of `webhook-id + "." + webhook-timestamp + "." + raw body`, keyed with the base64-decoded part of your webhook secret after `whsec_` (Standard Webhooks). Several space-separated values may come: accept if one matches. */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "evt_0001",
         *       "type": "refund.failed",
         *       "created_at": "2026-01-01T00:05:00.000Z",
         *       "data": {
         *         "refund_no": "R2026010100100000123456",
         *         "out_refund_no": "REFUND-1001",
         *         "trade_no": "C2026010100000001",
         *         "status": "failed",
         *         "amount": "30.13",
         *         "currency": "CNY",
         *         "reason": "One item out of stock",
         *         "created_at": "2026-01-01T01:00:00.000Z",
         *         "finished_at": "2026-01-01T00:05:00.000Z",
         *         "failure_reason": "Sandbox: refunds of an amount ending in .13 fail.",
         *         "livemode": false
         *       }
         *     }
         */
        'application/json': components['schemas']['RefundFailedEvent'];
      };
    };
    responses: {
      /** @description Received: the delivery ends. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Anything else, a timeout or no answer: retried with backoff. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
