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
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
                total: string;
                available: string;
                locked: string;
                /** @enum {string} */
                currency: 'CNY' | 'INR' | 'BRL' | 'VND' | 'USD' | 'USDT';
              };
            };
          };
        };
      };
    };
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
    get: {
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
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
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
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Create a collection (pay-in) order
     * @description Answers 201 with the order and its pay_url. A repeated out_trade_no answers 409 with the existing trade_no; no open channel answers 422 channel_unavailable.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            out_trade_no: string;
            amount: string;
            channel?: string;
            notify_url?: string;
            return_url?: string;
            payer_name?: string;
            note?: string;
            payer_ip?: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
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
            };
          };
        };
      };
    };
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
    get: {
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
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
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
            };
          };
        };
      };
    };
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
    get: {
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
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
                trade_no: string;
                out_trade_no: string;
                /** @enum {string} */
                status:
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
            };
          };
        };
      };
    };
    put?: never;
    /**
     * Create a payout
     * @description Holds amount + fee at once (422 insufficient_funds when the available balance cannot cover it; nothing is written). Send an Idempotency-Key header to retry safely: the same key and body replay the first answer with Idempotent-Replayed: true; another body answers 422; while the first is still running, 409.
     */
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
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
        };
      };
      responses: {
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
                trade_no: string;
                out_trade_no: string;
                /** @enum {string} */
                status:
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
            };
          };
        };
      };
    };
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
    get: {
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
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
                trade_no: string;
                out_trade_no: string;
                /** @enum {string} */
                status:
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
            };
          };
        };
      };
    };
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
    post: {
      parameters: {
        query?: never;
        header?: never;
        path: {
          trade_no: string;
        };
        cookie?: never;
      };
      requestBody: {
        content: {
          'application/json': {
            out_refund_no: string;
            amount: string;
            reason?: string;
          };
        };
      };
      responses: {
        /** @description Default Response */
        201: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
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
            };
          };
        };
      };
    };
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
    get: {
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
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
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
            };
          };
        };
      };
    };
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
    get: {
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
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content: {
            'application/json': {
              data: {
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
            };
          };
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: never;
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
